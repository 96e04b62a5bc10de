import { randomBytes } from 'node:crypto';
import { Readable, Transform } from 'node:stream';

/** A file moved to or from Lark that is larger than allowed here (checked as its bytes flow, never all in memory). */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`file larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

/** Passes bytes through until more than `maxBytes` went by, then fails with FileTooLargeError. */
export function capBytes(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(new FileTooLargeError(maxBytes));
      else done(null, chunk);
    },
  });
}

/** A file's bytes as Lark sends them, and their length when Lark says it (content-length). */
export interface LarkDownload {
  body: Readable;
  size: number | null;
}

/** Lark's answer → a Node stream of its bytes, with the declared length. */
export function downloadOf(response: Response): LarkDownload {
  const length = Number(response.headers.get('content-length'));
  return {
    body: response.body
      ? Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)
      : Readable.from([]),
    size: Number.isFinite(length) && response.headers.has('content-length') ? length : null,
  };
}

/** A file sent to Lark from the store: opened anew for each try (a rate-limited or renewed call sends it again). */
export interface StreamedFile {
  name: string;
  size: number;
  open(): Promise<Readable>;
}

/**
 * multipart/form-data with text fields and one file, streamed from the store with an exact Content-Length (Lark's
 * gateway gets a sized body, as a browser form sends it). The file's bytes must be exactly `size` long.
 */
export class StreamedForm {
  readonly boundary = `----release${randomBytes(12).toString('hex')}`;
  constructor(
    readonly fields: Array<[string, string]>,
    readonly fileField: string,
    readonly file: StreamedFile,
  ) {}

  get contentType(): string {
    return `multipart/form-data; boundary=${this.boundary}`;
  }

  private parts(): { head: Buffer; tail: Buffer } {
    const quote = (s: string) => s.replace(/"/g, '%22').replace(/\r|\n/g, ' ');
    const text = this.fields
      .map(
        ([name, value]) =>
          `--${this.boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`,
      )
      .join('');
    const fileHead = `--${this.boundary}\r\nContent-Disposition: form-data; name="${quote(this.fileField)}"; filename="${quote(this.file.name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    return { head: Buffer.from(text + fileHead), tail: Buffer.from(`\r\n--${this.boundary}--\r\n`) };
  }

  get length(): number {
    const { head, tail } = this.parts();
    return head.length + this.file.size + tail.length;
  }

  /** The whole body as a stream: the fields, the file from the store, the closing boundary. */
  async open(): Promise<Readable> {
    const { head, tail } = this.parts();
    const source = await this.file.open();
    async function* body() {
      yield head;
      for await (const chunk of source) yield chunk as Buffer;
      yield tail;
    }
    return Readable.from(body());
  }
}

/** Adler-32 of the bytes, in decimal: the `checksum` of Lark's drive uploads. */
export function adler32(data: Buffer): string {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    // The modulo once per few thousand bytes, as zlib does (the sums stay exact integers meanwhile).
    const end = Math.min(i + 3800, data.length);
    for (; i < end; i++) {
      a += data[i] as number;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return String(((b << 16) | a) >>> 0);
}

/** A stream cut into consecutive blocks of `size` bytes (the last one shorter): one block in memory at a time. */
export async function* blocksOf(source: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of source) {
    let rest = chunk as Buffer;
    while (length + rest.length >= size) {
      const take = size - length;
      yield Buffer.concat([...pending, rest.subarray(0, take)]);
      rest = rest.subarray(take);
      pending = [];
      length = 0;
    }
    if (rest.length) {
      pending.push(rest);
      length += rest.length;
    }
  }
  if (length) yield Buffer.concat(pending);
}
