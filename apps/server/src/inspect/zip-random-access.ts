import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { readAt } from './zip-layout.ts';

/**
 * Positional reads over the shared handle. (An fs.ReadStream on a borrowed fd closes that fd when destroyed,
 * which every `for await` loop does on completion.)
 */
class FileRangeStream extends Readable {
  private position: number;

  constructor(
    private readonly handle: FileHandle,
    start: number,
    private readonly end: number,
  ) {
    super();
    this.position = start;
  }

  override _read(size: number): void {
    const length = Math.min(size, 256 * 1024, this.end - this.position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafe(length);
    this.handle.read(buffer, 0, length, this.position).then(
      ({ bytesRead }) => {
        if (bytesRead === 0) {
          this.destroy(new Error('unexpected end of file'));
          return;
        }
        this.position += bytesRead;
        this.push(buffer.subarray(0, bytesRead));
      },
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

/** Serves reads inside the central directory from one buffer, everything else from the file. */
export class CentralDirectoryCachingReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly handle: FileHandle,
    private readonly cdStart: number,
    private readonly cd: Buffer,
  ) {
    super();
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    if (position >= this.cdStart && position + length <= this.cdStart + this.cd.length) {
      this.cd.copy(buffer, offset, position - this.cdStart, position - this.cdStart + length);
      // Asynchronous on purpose: yauzl re-enters readEntry from our handler, a sync callback would grow the stack per entry.
      process.nextTick(callback, null);
      return;
    }
    readAt(this.handle, position, length).then(
      (bytes) => {
        if (bytes.length < length) return callback(new Error('unexpected end of file'));
        bytes.copy(buffer, offset);
        callback(null);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return new FileRangeStream(this.handle, start, end);
  }

  override close(callback: (err: Error | null) => void): void {
    this.handle.close().then(() => callback(null), (error: unknown) => callback(error instanceof Error ? error : null));
  }
}
