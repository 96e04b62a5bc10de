import fsp, { type FileHandle } from 'node:fs/promises';
import { once } from 'node:events';
import { Readable } from 'node:stream';

const MIN_CHUNK = 64 * 1024;
const MAX_CHUNK = 1024 * 1024;
/** Chunks in flight at once: one being written to the socket while the next is read from disk. */
const RING = 2;

/** Full-size buffers of finished downloads, for the next ones (so a download allocates almost nothing). */
const spare: Buffer[] = [];
const MAX_SPARE = 8;

function takeBuffer(size: number): Buffer {
  return (size === MAX_CHUNK ? spare.pop() : undefined) ?? Buffer.allocUnsafeSlow(size);
}

/** Only buffers no write still holds come back. */
function giveBack(slots: Array<Slot | undefined>): void {
  for (const slot of slots) {
    if (slot?.settled && slot.buffer.length === MAX_CHUNK && spare.length < MAX_SPARE) spare.push(slot.buffer);
  }
}

interface Slot {
  buffer: Buffer;
  written: Promise<void>;
  /** True once the socket took the bytes, i.e. the client keeps up. */
  settled: boolean;
}

/**
 * A byte range of a file as a response body (`end` exclusive).
 *
 * Piped, as Fastify pipes a reply body, it reads into two buffers that it reuses, writing each with a
 * completion callback. A plain file stream allocates a new Buffer per chunk instead, and on a 1 GiB download
 * that external memory makes V8 run a full mark-compact every ~64 MB (in this server's heap, 30-60 ms each):
 * more CPU than the copying itself. Chunks start at 64 KiB and double up to 1 MiB while the client keeps up,
 * so a slow client holds little memory. Read any other way, it is an ordinary stream (a Buffer per chunk).
 */
export class FileBody extends Readable {
  private position: number;
  private handle: FileHandle | null = null;
  /** Settles when the stream is closed or destroyed (the client went away). */
  private readonly gone: Promise<void>;

  constructor(
    private readonly file: string,
    start: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: MIN_CHUNK });
    this.position = start;
    this.gone = once(this, 'close').then(
      () => undefined,
      () => undefined,
    );
  }

  private async open(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    const handle = await fsp.open(this.file, 'r');
    if (this.destroyed) {
      await handle.close();
      throw new Error('stream destroyed');
    }
    this.handle = handle;
    return handle;
  }

  private async readChunk(buffer: Buffer): Promise<Buffer> {
    const handle = await this.open();
    const length = Math.min(buffer.length, this.end - this.position);
    const { bytesRead } = await handle.read(buffer, 0, length, this.position);
    if (bytesRead === 0) throw new Error(`unexpected end of file at ${this.position}`);
    this.position += bytesRead;
    return buffer.subarray(0, bytesRead);
  }

  override _read(size: number): void {
    if (this.position >= this.end) {
      this.push(null);
      return;
    }
    this.readChunk(Buffer.allocUnsafe(Math.max(size, MIN_CHUNK))).then(
      (chunk) => this.push(chunk),
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    );
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    this.send(destination, options?.end ?? true).catch((error: unknown) =>
      this.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return destination;
  }

  private async send(destination: NodeJS.WritableStream, endDestination: boolean): Promise<void> {
    const slots: Array<Slot | undefined> = [];
    let chunkSize = MIN_CHUNK;
    let failure: Error | null = null;
    for (let turn = 0; this.position < this.end; turn += 1) {
      const previous = slots[turn % RING];
      if (previous) {
        const keptUp = previous.settled;
        await Promise.race([previous.written, this.gone]);
        if (keptUp && chunkSize < MAX_CHUNK) chunkSize *= 2;
      }
      if (failure) throw failure;
      if (this.destroyed) return;
      const buffer = previous && previous.buffer.length >= chunkSize ? previous.buffer : takeBuffer(chunkSize);
      const chunk = await this.readChunk(buffer);
      if (this.destroyed) return;
      const slot: Slot = { buffer, settled: false, written: Promise.resolve() };
      slot.written = new Promise<void>((resolve) => {
        destination.write(chunk, (error?: Error | null) => {
          if (error) failure ??= error;
          slot.settled = true;
          resolve();
        });
      });
      slots[turn % RING] = slot;
    }
    await Promise.race([Promise.all(slots.map((slot) => slot?.written)), this.gone]);
    giveBack(slots);
    if (failure) throw failure;
    if (this.destroyed) return;
    // End this stream first, then the destination, as pipe() does: watchers see 'end' before 'finish'.
    const ended = once(this, 'end');
    this.push(null);
    this.resume();
    await ended;
    if (endDestination) destination.end();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = null;
    if (!handle) {
      callback(error);
      return;
    }
    handle.close().then(
      () => callback(error),
      () => callback(error),
    );
  }
}
