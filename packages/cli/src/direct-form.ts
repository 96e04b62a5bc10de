import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

/** A multipart/form-data body streamed from disk, with its exact length (the server refuses an oversize one up front). */
export interface FormBody {
  contentType: string;
  length: number;
  body: () => AsyncGenerator<Uint8Array>;
}

const quoted = (value: string) => value.replace(/["\r\n\\]/g, '_');

/**
 * Text fields first, then the one file (POST /api/upload_app/direct needs the app before the file): the file is read
 * from disk as it is sent, and `onBytes` counts its bytes.
 */
export function formBody(
  fields: Array<[string, string]>,
  file: { path: string; name: string; size: number },
  onBytes: (n: number) => void = () => undefined,
): FormBody {
  const boundary = `----release-cli-${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    [
      ...fields.map(
        ([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${quoted(file.name)}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    ].join(''),
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + file.size + tail.length,
    body: async function* () {
      yield head;
      for await (const chunk of fs.createReadStream(file.path, { highWaterMark: 256 * 1024 })) {
        onBytes((chunk as Buffer).length);
        yield chunk as Buffer;
      }
      yield tail;
    },
  };
}
