import { randomChars } from '../shared/ids.ts';

/** Bitable in memory (contract §E): bases, tables, fields (type codes, select options) and records. */
export interface BitableField {
  field_id: string;
  field_name: string;
  type: number;
  ui_type: string;
  is_primary: boolean;
  is_hidden: boolean;
  description: string;
  property: Record<string, unknown> | null;
}

export interface BitableRecord {
  record_id: string;
  /** Cell values keyed by field_id, in their stored (write) form. */
  cells: Map<string, unknown>;
  created_by: string;
  created_time: number;
  last_modified_by: string;
  last_modified_time: number;
}

export interface BitableTable {
  table_id: string;
  name: string;
  revision: number;
  default_view_id: string;
  fields: BitableField[];
  records: BitableRecord[];
}

export interface BitableApp {
  app_token: string;
  name: string;
  folder_token: string;
  url: string;
  time_zone: string;
  /** Who may use the base: its creator (app id or open_id) and added collaborators. */
  collaborators: Set<string>;
  tables: BitableTable[];
}

export const UI_TYPES: Record<number, string> = {
  1: 'Text',
  2: 'Number',
  3: 'SingleSelect',
  4: 'MultiSelect',
  5: 'DateTime',
  7: 'Checkbox',
  11: 'User',
  13: 'Phone',
  15: 'Url',
  17: 'Attachment',
  18: 'SingleLink',
  19: 'Lookup',
  20: 'Formula',
  21: 'DuplexLink',
  22: 'Location',
  23: 'GroupChat',
  1001: 'CreatedTime',
  1002: 'ModifiedTime',
  1003: 'CreatedUser',
  1004: 'ModifiedUser',
  1005: 'AutoNumber',
};

/** A file uploaded through drive media (upload_all) to a base, for its attachment cells. */
export interface DriveMedia {
  file_token: string;
  name: string;
  size: number;
  mime: string;
  data: Buffer;
  parent_type: string;
  /** The base's app_token the file belongs to. */
  parent_node: string;
  uploader: string;
  uploaded_at: number;
}

/** A multipart upload of drive media (upload_prepare → upload_part × block_num → upload_finish), for files over 20 MB. */
export interface MediaUpload {
  upload_id: string;
  name: string;
  parent_type: string;
  parent_node: string;
  size: number;
  block_size: number;
  block_num: number;
  uploader: string;
  prepared_at: number;
  /** The blocks received, by seq (from 0). */
  blocks: Map<number, Buffer>;
}

export class BitableStore {
  apps = new Map<string, BitableApp>();
  /** Drive media by file_token (the files behind attachment cells). */
  media = new Map<string, DriveMedia>();
  /** Multipart media uploads in progress, by upload_id. */
  mediaUploads = new Map<string, MediaUpload>();
  /** client_token (per base and route) → the request it answered and the answer. */
  clientTokens = new Map<string, { request: string; data: unknown }>();

  newAppToken(): string {
    return `bascn${randomChars(22)}`;
  }
  newTableId(): string {
    return `tbl${randomChars(13)}`;
  }
  newFieldId(): string {
    return `fld${randomChars(10)}`;
  }
  newRecordId(): string {
    return `rec${randomChars(10)}`;
  }
  newViewId(): string {
    return `vew${randomChars(10)}`;
  }
  newOptionId(): string {
    return `opt${randomChars(10)}`;
  }

  newMediaToken(): string {
    return `boxcn${randomChars(22)}`;
  }
  /** Lark's upload ids are 19 digits. */
  newUploadId(): string {
    return `7${Array.from({ length: 18 }, () => Math.floor(Math.random() * 10)).join('')}`;
  }

  reset(): void {
    this.apps.clear();
    this.media.clear();
    this.mediaUploads.clear();
    this.clientTokens.clear();
  }
}
