import { cleanFileUrls } from '@release/contract';
import { z } from 'zod';
import { jsonColumn } from './json-column.ts';

/**
 * `commit_logs.file_urls`: an update item's JSON list of snapshot links, decoded by every reader (the commit logs,
 * the media housekeeping, a version removal's "still named" check): here, where each may import it without one
 * feature module importing another. Blank and non-text entries are left out; a damaged value reads as no links
 * (reported once as a process warning).
 */
export const fileUrlsColumn = jsonColumn('commit_logs.file_urls', z.array(z.unknown()).transform(cleanFileUrls), {
  fallback: () => [],
});
