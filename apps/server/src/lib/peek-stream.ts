import { Readable } from 'node:stream';

/** Reads the first `size` bytes of a stream and gives back a stream of the whole, head included. */
export async function peekStream(source: Readable, size: number): Promise<{ head: Buffer; stream: Readable }> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < size) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* whole(): AsyncGenerator<Buffer> {
    if (head.length) yield head;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head, stream: Readable.from(whole()) };
}
