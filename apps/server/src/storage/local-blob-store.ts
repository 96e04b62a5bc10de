import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { Clock } from '../lib/clock.ts';
import { decodeJson } from '../lib/decode-json.ts';
import { assertSafeKey, BlobError, type BlobPart, type ByteRange } from './blob-store.ts';
import { type SyncData, syncPath, writeFlushingBehind, writePartAt } from './part-writer.ts';
import type { UrlSigner } from './url-signer.ts';

/** An upload's meta.json, written at its start and read by each part and the completion. */
const multipartMeta = z.object({
  key: z.string(),
  size: z.number().int().nonnegative(),
  partSize: z.number().int().positive(),
  contentType: z.string(),
});
type MultipartMeta = z.output<typeof multipartMeta>;

export const LOCAL_PART_PATH = '/api/blob/part';
export const LOCAL_DOWNLOAD_PATH = '/api/blob/file';
/** `put` writes `<key>.<uuid>.tmp` and renames it into place. */
const PUT_IN_PROGRESS = /\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;

/**
 * Blobs on local disk under `root`. A multipart upload preallocates its file and writes each part in
 * place at its offset, so completing it is an fsync and a rename, not a second copy.
 */
export function createLocalBlobStore(deps: { root: string; signer: UrlSigner; clock: Clock; syncData?: SyncData }) {
  const { root, signer, clock } = deps;
  const objectsDir = path.join(root, 'objects');
  const multipartDir = path.join(root, 'multipart');
  const scratchDir = path.join(root, 'scratch');

  function objectPath(key: string): string {
    assertSafeKey(key);
    return path.join(objectsDir, key);
  }
  function uploadDir(uploadId: string): string {
    if (!/^[0-9a-f-]{36}$/.test(uploadId)) throw new BlobError('no_upload', 'unknown upload');
    return path.join(multipartDir, uploadId);
  }
  /** An upload's meta.json; a damaged one refuses every part and the completion with a clear error, never a guess. */
  async function readMeta(uploadId: string): Promise<MultipartMeta> {
    const text = await fsp.readFile(path.join(uploadDir(uploadId), 'meta.json'), 'utf8').catch(() => null);
    if (text === null) throw new BlobError('no_upload', 'unknown or finished upload');
    const meta = decodeJson(text, multipartMeta);
    if (!meta.ok) throw new BlobError('no_upload', `upload ${uploadId} is damaged (meta.json: ${meta.problem})`);
    return meta.value;
  }
  function partLength(meta: MultipartMeta, partNo: number): number {
    const partCount = Math.max(1, Math.ceil(meta.size / meta.partSize));
    if (!Number.isInteger(partNo) || partNo < 1 || partNo > partCount)
      throw new BlobError('incomplete', `part ${partNo} is out of range`);
    return Math.min(meta.partSize, meta.size - (partNo - 1) * meta.partSize);
  }

  /**
   * Writes `<key>.<uuid>.tmp`, flushes it (while `read` runs on it, when given), renames it into place and flushes
   * the folder: on disk before it is answered, as a multipart upload's parts (a one-request publish answers with its
   * version).
   */
  async function writeObject(
    key: string,
    body: Readable | Buffer,
    read?: (file: string) => Promise<unknown>,
  ): Promise<{ size: number }> {
    const target = objectPath(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.tmp`;
    let reading: Promise<unknown> | undefined;
    try {
      const handle = await fsp.open(temp, 'wx');
      try {
        if (Buffer.isBuffer(body)) await handle.writeFile(body);
        else await writeFlushingBehind(handle, body);
        // Settled either way before the file moves or goes: the reader may still have it open by this path.
        reading = read?.(temp).then(
          () => undefined,
          () => undefined,
        );
        await handle.sync();
      } finally {
        await handle.close();
      }
      await reading;
      await fsp.rename(temp, target);
      await syncPath(path.dirname(target), 'directory');
    } catch (error) {
      await reading;
      await fsp.rm(temp, { force: true });
      throw error;
    }
    return { size: (await fsp.stat(target)).size };
  }

  const store = {
    kind: 'local' as const,
    root,

    /** Absolute path of an object, for readers that need random access (package inspection). */
    filePath: objectPath,

    async startMultipart(key: string, options: { size: number; partSize: number; contentType: string }) {
      assertSafeKey(key);
      const uploadId = randomUUID();
      const dir = uploadDir(uploadId);
      await fsp.mkdir(path.join(dir, 'parts'), { recursive: true });
      const handle = await fsp.open(path.join(dir, 'data'), 'w');
      await handle.truncate(options.size);
      await handle.close();
      const meta: MultipartMeta = { key, ...options };
      await fsp.writeFile(path.join(dir, 'meta.json'), JSON.stringify(meta));
      return { uploadId };
    },

    async partUploadUrl(_key: string, uploadId: string, partNo: number, expiresInSec: number) {
      const expires = clock.now() + expiresInSec * 1000;
      const sig = signer.sign(['part', uploadId, partNo, expires]);
      return `${LOCAL_PART_PATH}?uploadId=${uploadId}&partNo=${partNo}&expires=${expires}&sig=${sig}`;
    },

    verifyPartUrl(query: { uploadId: string; partNo: number; expires: number; sig: string }): boolean {
      return (
        query.expires > clock.now() && signer.verify(['part', query.uploadId, query.partNo, query.expires], query.sig)
      );
    },

    /**
     * Streams one part into place; answers its etag once its bytes are flushed, and only then writes its receipt
     * (see part-writer.ts). Refuses a part longer or shorter than its slot.
     */
    async writePart(uploadId: string, partNo: number, body: Readable): Promise<{ etag: string }> {
      const meta = await readMeta(uploadId);
      const expected = partLength(meta, partNo);
      const dir = uploadDir(uploadId);
      const { received, etag } = await writePartAt(
        path.join(dir, 'data'),
        (partNo - 1) * meta.partSize,
        body,
        expected,
        partNo,
        deps.syncData,
      );
      if (received !== expected)
        throw new BlobError('incomplete', `part ${partNo} has ${received} of ${expected} bytes`);
      await fsp.writeFile(path.join(dir, 'parts', String(partNo)), etag);
      return { etag };
    },

    async completeMultipart(key: string, uploadId: string, parts: BlobPart[], expectedSize: number) {
      const meta = await readMeta(uploadId);
      if (meta.key !== key) throw new BlobError('no_upload', 'upload belongs to another key');
      if (meta.size !== expectedSize)
        throw new BlobError('incomplete', `upload was started for ${meta.size} bytes, not ${expectedSize}`);
      const partCount = Math.max(1, Math.ceil(meta.size / meta.partSize));
      const dir = uploadDir(uploadId);
      for (let partNo = 1; partNo <= partCount; partNo += 1) {
        const stored = await fsp.readFile(path.join(dir, 'parts', String(partNo)), 'utf8').catch(() => null);
        const claimed = parts.find((p) => p.partNo === partNo)?.etag.replaceAll('"', '');
        if (!stored || stored !== claimed)
          throw new BlobError('incomplete', `part ${partNo} is missing or does not match`);
      }
      const target = objectPath(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      // Each part was flushed before its answer; this fsync also covers the file's size and metadata.
      await syncPath(path.join(dir, 'data'));
      await fsp.rename(path.join(dir, 'data'), target);
      await syncPath(path.dirname(target), 'directory');
      await fsp.rm(dir, { recursive: true, force: true });
      return { size: meta.size };
    },

    async abortMultipart(_key: string, uploadId: string) {
      await fsp.rm(uploadDir(uploadId), { recursive: true, force: true });
    },

    /** Upload ids with their start time, for the clean-up of abandoned uploads. */
    async listMultipart(): Promise<Array<{ key: string; uploadId: string; startedAt: number }>> {
      const names = await fsp.readdir(multipartDir).catch(() => [] as string[]);
      const out: Array<{ key: string; uploadId: string; startedAt: number }> = [];
      for (const name of names.filter((n) => /^[0-9a-f-]{36}$/.test(n))) {
        const metaFile = path.join(multipartDir, name, 'meta.json');
        const stat = await fsp.stat(metaFile).catch(() => null);
        // A folder without meta.json died before its upload started: clean it like any other.
        // A damaged one too: it is listed without its key, and cleaned up when it is old enough.
        const text = stat ? await fsp.readFile(metaFile, 'utf8').catch(() => null) : null;
        const meta = text === null ? null : decodeJson(text, multipartMeta);
        const started =
          stat?.mtimeMs ?? (await fsp.stat(path.join(multipartDir, name)).catch(() => null))?.mtimeMs ?? 0;
        out.push({ key: meta?.ok ? meta.value.key : '', uploadId: name, startedAt: started });
      }
      return out;
    },

    async put(key: string, body: Readable | Buffer, _options: { contentType: string }) {
      return writeObject(key, body);
    },

    /**
     * `put`, with `read(file)` run on the written bytes at their temporary path while they are flushed to disk (a
     * package is inspected during its fsync, issue 23). The object is renamed into place once both are done, so
     * `read` may open the file by that path as often as it needs; nothing is answered before the bytes are durable.
     * `read`'s outcome is the caller's (it keeps the promise): the store only waits for it to settle.
     */
    async putReading(key: string, body: Readable, read: (file: string) => Promise<unknown>) {
      return writeObject(key, body, read);
    },

    /** A folder on the objects' disk for work whose result `adopt` then moves in without copying it. */
    scratchDir,

    /** Moves a finished file in as the object `key`, as `put` would write it: a rename (a copy across disks). */
    async adopt(key: string, file: string) {
      const target = objectPath(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      try {
        await fsp.rename(file, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await store.put(key, fs.createReadStream(file), { contentType: 'application/octet-stream' });
      }
      return { size: (await fsp.stat(target)).size };
    },

    async stat(key: string) {
      const stat = await fsp.stat(objectPath(key)).catch(() => null);
      return stat?.isFile() ? { size: stat.size } : null;
    },

    async read(key: string, range?: ByteRange) {
      const file = objectPath(key);
      if (!(await store.stat(key))) throw new BlobError('not_found', `no blob ${key}`);
      return fs.createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },

    async downloadUrl(key: string, options: { expiresInSec: number; fileName: string; contentType: string }) {
      assertSafeKey(key);
      const expires = clock.now() + options.expiresInSec * 1000;
      const sig = signer.sign(['file', key, expires, options.fileName, options.contentType]);
      const query = new URLSearchParams({
        key,
        expires: String(expires),
        name: options.fileName,
        type: options.contentType,
        sig,
      });
      return `${LOCAL_DOWNLOAD_PATH}?${query.toString()}`;
    },

    verifyDownloadUrl(query: { key: string; expires: number; name: string; type: string; sig: string }): boolean {
      return (
        query.expires > clock.now() &&
        signer.verify(['file', query.key, query.expires, query.name, query.type], query.sig)
      );
    },

    async delete(key: string) {
      await fsp.rm(objectPath(key), { force: true });
    },

    /** Every stored object with its size, in no set order (a `put` still being written is not one yet). */
    async *listObjects(): AsyncGenerator<{ key: string; size: number }> {
      const entries = await fsp.readdir(objectsDir, { recursive: true, withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (!entry.isFile() || PUT_IN_PROGRESS.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const stat = await fsp.stat(file).catch(() => null);
        if (stat) yield { key: path.relative(objectsDir, file).split(path.sep).join('/'), size: stat.size };
      }
    },
  };
  return store;
}
export type LocalBlobStore = ReturnType<typeof createLocalBlobStore>;
