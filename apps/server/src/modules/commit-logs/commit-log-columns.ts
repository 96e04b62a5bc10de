import { z } from 'zod';
import { fileUrlsColumn } from '../../db/file-urls-column.ts';
import { jsonColumn } from '../../db/json-column.ts';

/**
 * The JSON columns of `commit_logs`, decoded once in the repository. A damaged value reads as empty (reported once
 * as a process warning): the item still lists and opens. `metadata` is answered as stored by metadata_list (SPEC §7);
 * only the wiki diff reads it, as any JSON, then checks it is a wiki event.
 */
export const commitLogColumns = {
  tagSummary: jsonColumn('commit_logs.tag_summary', z.array(z.string()), { fallback: () => [] }),
  fileUrls: fileUrlsColumn,
  metadata: jsonColumn('commit_logs.metadata', z.unknown(), { fallback: () => null }),
};
