import { randomUUID } from 'node:crypto';
import { LarkApiError, type LarkClient } from './lark-client.ts';
import { StreamedForm, type LarkDownload, type StreamedFile } from './lark-files.ts';

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
  if (Array.isArray(value)) return value.map((s) => (typeof s === 'object' && s !== null && 'text' in s ? String((s as { text: unknown }).text) : '')).join('');
  return '';
}

/** Lark's limit for one drive media upload (upload_all); larger files would need the multipart upload. */
export const MEDIA_UPLOAD_MAX_BYTES = 20 * 1024 * 1024;

/** An attachment cell as read → its files (file_token, name, and size when Lark says it). */
export function bitableFiles(value: unknown): Array<{ file_token: string; name: string; size: number | null }> {
  if (!Array.isArray(value)) return [];
  return value.flatMap((f) => {
    if (typeof f !== 'object' || f === null || typeof (f as { file_token?: unknown }).file_token !== 'string') return [];
    const cell = f as { file_token: string; name?: unknown; size?: unknown };
    return [{ file_token: cell.file_token, name: String(cell.name ?? ''), size: typeof cell.size === 'number' ? cell.size : null }];
  });
}

/** A person cell as read → the open_ids in it. */
export function bitablePeople(value: unknown): string[] {
  return Array.isArray(value) ? value.map((p) => (typeof p === 'object' && p !== null ? String((p as { id?: unknown }).id ?? '') : '')).filter(Boolean) : [];
}

export function createLarkBitableClient(lark: LarkClient) {
  const table = (appToken: string, tableId: string) => `/open-apis/bitable/v1/apps/${encodeURIComponent(appToken)}/tables/${encodeURIComponent(tableId)}`;

  return {
    /** POST /apps: a new base owned by our app (20 per minute). */
    async createBase(name: string): Promise<BitableBase> {
      const data = await lark.request('POST', '/open-apis/bitable/v1/apps', { body: { name } });
      const app = data.app as { app_token: string; url: string; default_table_id: string };
      return { appToken: app.app_token, url: app.url, defaultTableId: app.default_table_id };
    },

    /** POST /apps/:app_token/tables: the first field is the primary one. */
    async createTable(appToken: string, name: string, fields: BitableFieldSpec[]): Promise<string> {
      const data = await lark.request('POST', `/open-apis/bitable/v1/apps/${encodeURIComponent(appToken)}/tables`, { body: { table: { name, fields } } });
      return String(data.table_id);
    },

    async listFields(appToken: string, tableId: string): Promise<BitableFieldInfo[]> {
      const out: BitableFieldInfo[] = [];
      let pageToken: string | undefined;
      for (let n = 0; n < MAX_PAGES; n += 1) {
        const data = await lark.request('GET', `${table(appToken, tableId)}/fields`, { query: { page_size: 100, page_token: pageToken } });
        out.push(...((data.items as BitableFieldInfo[] | undefined) ?? []));
        if (!data.has_more || typeof data.page_token !== 'string') break;
        pageToken = data.page_token;
      }
      return out;
    },

    /** Every record (POST …/records/search, all pages) with its last modified time. */
    async searchAll(appToken: string, tableId: string, body: Record<string, unknown> = {}): Promise<BitableRecordRead[]> {
      const out: BitableRecordRead[] = [];
      let pageToken: string | undefined;
      for (let n = 0; n < MAX_PAGES; n += 1) {
        const data = await lark.request('POST', `${table(appToken, tableId)}/records/search`, { query: { page_size: SEARCH_PAGE_SIZE, page_token: pageToken }, body: { automatic_fields: true, ...body } });
        out.push(...((data.items as BitableRecordRead[] | undefined) ?? []));
        if (!data.has_more || typeof data.page_token !== 'string') break;
        pageToken = data.page_token;
      }
      return out;
    },

    async getRecord(appToken: string, tableId: string, recordId: string): Promise<BitableRecordRead> {
      const data = await lark.request('GET', `${table(appToken, tableId)}/records/${encodeURIComponent(recordId)}`, { query: { automatic_fields: true } });
      return data.record as BitableRecordRead;
    },

    /** POST …/records with a client_token (uuidv4): a retried create answers the same record. */
    async createRecord(appToken: string, tableId: string, fields: Record<string, unknown>, clientToken: string = randomUUID()): Promise<BitableRecordRead> {
      const data = await lark.request('POST', `${table(appToken, tableId)}/records`, { query: { client_token: clientToken }, body: { fields } });
      return data.record as BitableRecordRead;
    },

    /** PUT …/records/:id: only the fields sent change (null clears a cell). */
    async updateRecord(appToken: string, tableId: string, recordId: string, fields: Record<string, unknown>): Promise<BitableRecordRead> {
      const data = await lark.request('PUT', `${table(appToken, tableId)}/records/${encodeURIComponent(recordId)}`, { body: { fields } });
      return data.record as BitableRecordRead;
    },

    /** POST …/fields: a field added to an existing table (e.g. the attachment column of a table made before it). */
    async createField(appToken: string, tableId: string, field: BitableFieldSpec): Promise<void> {
      await lark.request('POST', `${table(appToken, tableId)}/fields`, { body: field });
    },

    /**
     * POST /open-apis/drive/v1/medias/upload_all (multipart, ≤ 20 MB): a file for the base's attachment cells
     * (parent_type bitable_image or bitable_file, parent_node the app_token); answers its file_token.
     */
    async uploadMedia(appToken: string, file: StreamedFile, image: boolean): Promise<string> {
      const form = new StreamedForm([['file_name', file.name], ['parent_type', image ? 'bitable_image' : 'bitable_file'], ['parent_node', appToken], ['size', String(file.size)]], 'file', file);
      const token = (await lark.request('POST', '/open-apis/drive/v1/medias/upload_all', { body: form })).file_token;
      if (typeof token !== 'string' || !token) throw new LarkApiError(200, -1, '飞书未返回上传素材的 file_token');
      return token;
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
