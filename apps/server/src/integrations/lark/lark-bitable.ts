import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { LarkApiError, type LarkClient } from './lark-client.ts';
import { adler32, blocksOf, StreamedForm, type LarkDownload, type StreamedFile } from './lark-files.ts';

/** Lark Bitable (contract §E) over the tenant token of lark-client.ts. Records are keyed by field name. */
export interface BitableFieldSpec {
  field_name: string;
  /** 1 text, 2 number, 3 single select, 5 date, 11 person, 15 URL, 17 attachment, 1002 modified time … */
  type: number;
  property?: Record<string, unknown>;
}

export interface BitableFieldInfo {
  field_id: string;
  field_name: string;
  type: number;
  is_primary: boolean;
  property: { options?: Array<{ id: string; name: string; color?: number }> } | null;
}

export interface BitableRecordRead {
  record_id: string;
  fields: Record<string, unknown>;
  last_modified_time?: number;
}

export interface BitableBase {
  appToken: string;
  url: string;
  defaultTableId: string;
}

const SEARCH_PAGE_SIZE = 500;
const MAX_PAGES = 40;

/** A text cell as read (segments, or a plain string from older bases) → plain text. */
export function bitableText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value
      .map((s) => (typeof s === 'object' && s !== null && 'text' in s ? String((s as { text: unknown }).text) : ''))
      .join('');
  return '';
}

/** Lark's limit for one drive media upload (upload_all); larger files go through the multipart upload. */
export const MEDIA_UPLOAD_MAX_BYTES = 20 * 1024 * 1024;
/** Lark's answer to a drive upload larger than it takes ("file size beyond limit"). */
export const MEDIA_TOO_LARGE_CODE = 1061043;

/** An attachment cell as read → its files (file_token, name, and size when Lark says it). */
export function bitableFiles(value: unknown): Array<{ file_token: string; name: string; size: number | null }> {
  if (!Array.isArray(value)) return [];
  return value.flatMap((f) => {
    if (typeof f !== 'object' || f === null || typeof (f as { file_token?: unknown }).file_token !== 'string')
      return [];
    const cell = f as { file_token: string; name?: unknown; size?: unknown };
    return [
      {
        file_token: cell.file_token,
        name: String(cell.name ?? ''),
        size: typeof cell.size === 'number' ? cell.size : null,
      },
    ];
  });
}

/** A person cell as read → the open_ids in it. */
export function bitablePeople(value: unknown): string[] {
  return Array.isArray(value)
    ? value
        .map((p) => (typeof p === 'object' && p !== null ? String((p as { id?: unknown }).id ?? '') : ''))
        .filter(Boolean)
    : [];
}

export function createLarkBitableClient(lark: LarkClient) {
  function fileTokenOf(data: Record<string, unknown>): string {
    if (typeof data.file_token !== 'string' || !data.file_token)
      throw new LarkApiError(200, -1, '飞书未返回上传素材的 file_token');
    return data.file_token;
  }

  /** upload_prepare → upload_part × block_num → upload_finish (drive media's multipart upload). */
  async function uploadInParts(
    file: StreamedFile,
    target: { parent_type: string; parent_node: string },
  ): Promise<Record<string, unknown>> {
    const prepared = await lark.request('POST', '/open-apis/drive/v1/medias/upload_prepare', {
      body: { file_name: file.name, ...target, size: file.size },
    });
    const { upload_id: uploadId, block_size: blockSize, block_num: blockNum } = prepared;
    if (
      typeof uploadId !== 'string' ||
      typeof blockSize !== 'number' ||
      blockSize <= 0 ||
      blockNum !== Math.ceil(file.size / blockSize)
    )
      throw new LarkApiError(200, -1, '飞书未返回可用的分片上传事务');
    // The store holds other bytes than its size said: Lark would refuse the blocks; say what it is instead.
    const changed = () => new Error(`附件「${file.name}」在存储中的大小与记录的不一致`);
    const source = await file.open();
    let seq = 0;
    try {
      for await (const block of blocksOf(source, blockSize)) {
        if (seq >= blockNum || block.length !== (seq === blockNum - 1 ? file.size - seq * blockSize : blockSize))
          throw changed();
        const part: StreamedFile = { name: file.name, size: block.length, open: async () => Readable.from([block]) };
        const form = new StreamedForm(
          [
            ['upload_id', uploadId],
            ['seq', String(seq)],
            ['size', String(block.length)],
            ['checksum', adler32(block)],
          ],
          'file',
          part,
        );
        await lark.request('POST', '/open-apis/drive/v1/medias/upload_part', { body: form });
        seq += 1;
      }
    } finally {
      source.destroy();
    }
    if (seq !== blockNum) throw changed();
    return lark.request('POST', '/open-apis/drive/v1/medias/upload_finish', {
      body: { upload_id: uploadId, block_num: blockNum },
    });
  }

  const table = (appToken: string, tableId: string) =>
    `/open-apis/bitable/v1/apps/${encodeURIComponent(appToken)}/tables/${encodeURIComponent(tableId)}`;

  return {
    /** POST /apps: a new base owned by our app (20 per minute). */
    async createBase(name: string): Promise<BitableBase> {
      const data = await lark.request('POST', '/open-apis/bitable/v1/apps', { body: { name } });
      const app = data.app as { app_token: string; url: string; default_table_id: string };
      return { appToken: app.app_token, url: app.url, defaultTableId: app.default_table_id };
    },

    /** POST /apps/:app_token/tables: the first field is the primary one. */
    async createTable(appToken: string, name: string, fields: BitableFieldSpec[]): Promise<string> {
      const data = await lark.request('POST', `/open-apis/bitable/v1/apps/${encodeURIComponent(appToken)}/tables`, {
        body: { table: { name, fields } },
      });
      return String(data.table_id);
    },

    async listFields(appToken: string, tableId: string): Promise<BitableFieldInfo[]> {
      const out: BitableFieldInfo[] = [];
      let pageToken: string | undefined;
      for (let n = 0; n < MAX_PAGES; n += 1) {
        const data = await lark.request('GET', `${table(appToken, tableId)}/fields`, {
          query: { page_size: 100, page_token: pageToken },
        });
        out.push(...((data.items as BitableFieldInfo[] | undefined) ?? []));
        if (!data.has_more || typeof data.page_token !== 'string') break;
        pageToken = data.page_token;
      }
      return out;
    },

    /** Every record (POST …/records/search, all pages) with its last modified time. */
    async searchAll(
      appToken: string,
      tableId: string,
      body: Record<string, unknown> = {},
    ): Promise<BitableRecordRead[]> {
      const out: BitableRecordRead[] = [];
      let pageToken: string | undefined;
      for (let n = 0; n < MAX_PAGES; n += 1) {
        const data = await lark.request('POST', `${table(appToken, tableId)}/records/search`, {
          query: { page_size: SEARCH_PAGE_SIZE, page_token: pageToken },
          body: { automatic_fields: true, ...body },
        });
        out.push(...((data.items as BitableRecordRead[] | undefined) ?? []));
        if (!data.has_more || typeof data.page_token !== 'string') break;
        pageToken = data.page_token;
      }
      return out;
    },

    async getRecord(appToken: string, tableId: string, recordId: string): Promise<BitableRecordRead> {
      const data = await lark.request('GET', `${table(appToken, tableId)}/records/${encodeURIComponent(recordId)}`, {
        query: { automatic_fields: true },
      });
      return data.record as BitableRecordRead;
    },

    /** POST …/records with a client_token (uuidv4): a retried create answers the same record. */
    async createRecord(
      appToken: string,
      tableId: string,
      fields: Record<string, unknown>,
      clientToken: string = randomUUID(),
    ): Promise<BitableRecordRead> {
      const data = await lark.request('POST', `${table(appToken, tableId)}/records`, {
        query: { client_token: clientToken },
        body: { fields },
      });
      return data.record as BitableRecordRead;
    },

    /** PUT …/records/:id: only the fields sent change (null clears a cell). */
    async updateRecord(
      appToken: string,
      tableId: string,
      recordId: string,
      fields: Record<string, unknown>,
    ): Promise<BitableRecordRead> {
      const data = await lark.request('PUT', `${table(appToken, tableId)}/records/${encodeURIComponent(recordId)}`, {
        body: { fields },
      });
      return data.record as BitableRecordRead;
    },

    /** POST …/fields: a field added to an existing table (e.g. the attachment column of a table made before it). */
    async createField(appToken: string, tableId: string, field: BitableFieldSpec): Promise<void> {
      await lark.request('POST', `${table(appToken, tableId)}/fields`, { body: field });
    },

    /**
     * A file for the base's attachment cells (parent_type bitable_image or bitable_file, parent_node the app_token);
     * answers its file_token. Up to 20 MB in one POST /open-apis/drive/v1/medias/upload_all (multipart); larger ones
     * through the multipart upload: upload_prepare (Lark answers the upload id and its fixed 4 MB blocks),
     * upload_part for each block in order (seq from 0, its size and Adler-32 checksum; one block in memory at a
     * time, streamed from the store), upload_finish with the block count.
     */
    async uploadMedia(appToken: string, file: StreamedFile, image: boolean): Promise<string> {
      const target = { parent_type: image ? 'bitable_image' : 'bitable_file', parent_node: appToken };
      if (file.size > MEDIA_UPLOAD_MAX_BYTES) return fileTokenOf(await uploadInParts(file, target));
      const form = new StreamedForm(
        [
          ['file_name', file.name],
          ['parent_type', target.parent_type],
          ['parent_node', appToken],
          ['size', String(file.size)],
        ],
        'file',
        file,
      );
      return fileTokenOf(await lark.request('POST', '/open-apis/drive/v1/medias/upload_all', { body: form }));
    },

    /** GET /open-apis/drive/v1/medias/:file_token/download: an attachment cell's file, as a stream. */
    downloadMedia(fileToken: string): Promise<LarkDownload> {
      return lark.requestStream(`/open-apis/drive/v1/medias/${encodeURIComponent(fileToken)}/download`);
    },

    async deleteRecord(appToken: string, tableId: string, recordId: string): Promise<void> {
      await lark.request('DELETE', `${table(appToken, tableId)}/records/${encodeURIComponent(recordId)}`);
    },
  };
}
export type LarkBitableClient = ReturnType<typeof createLarkBitableClient>;
