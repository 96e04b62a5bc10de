import path from 'node:path';
import type { Clock } from '../../lib/clock.ts';
import {
  bitableFiles,
  MEDIA_TOO_LARGE_CODE,
  type BitableRecordRead,
  type LarkBitableClient,
} from '../../integrations/lark/lark-bitable.ts';
import { LarkApiError } from '../../integrations/lark/lark-client.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { taskColumns, type StoredTaskFile } from '../tasks/task-columns.ts';
import type { TaskRecordRow } from '../tasks/tasks.repository.ts';
import {
  attachmentKey,
  LARK_FILE_MAX_BYTES,
  limited,
  storeDownload,
  storedFile,
  tooLargeForLarkNote,
  tooLargeFromLarkNote,
  roomForFiles,
  tooManyFilesNote,
  type Spacer,
} from './attachment-sync.ts';
import { BUG_COLUMNS } from './lark-fields.ts';
import type { TasksSyncRepository } from './tasks-sync.repository.ts';

const UPLOAD_CONCURRENCY = 3;
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.bmp']);

/**
 * A bug's attachments ↔ the 附件 cell of its Bitable record (files go through drive media: upload_all with
 * parent_type bitable_image/bitable_file and parent_node = the base's app_token; the cell holds [{file_token}]).
 * - local files without a token are uploaded (3 at a time; over 20 MB through Lark's multipart upload; one Lark
 *   refuses as too large stays here with one history note) and added;
 * - files in the cell no local file names are downloaded (spaced 1 s, shared with tasks) — unless the record's history
 *   shows that token on a file removed here, in which case it is taken out of the cell; past TASK_ATTACHMENTS_MAX files
 *   here the rest stay only in Lark (one history note);
 * - a local file whose token left the cell was removed in Lark and goes here too (history source lark).
 * The cell is written before the tokens are stored here: a crash between them can duplicate a file, never lose one.
 */
export function createBugAttachmentSync(deps: {
  client: LarkBitableClient;
  blobs: BlobStore;
  sync: TasksSyncRepository;
  clock: Clock;
  spaced: Spacer;
}) {
  /**
   * Whether the table has the attachment column; one made before it (or whose column was deleted) gets it now. The
   * other bugs' files lost their cells with the old column: their tokens are forgotten, so they are uploaded again.
   */
  async function ensureColumn(record: TaskRecordRow, appToken: string, tableId: string): Promise<boolean> {
    const hasIt = async () =>
      (await deps.client.listFields(appToken, tableId)).some((f) => f.field_name === BUG_COLUMNS.attachments);
    if (await hasIt()) return true;
    try {
      await deps.client.createField(appToken, tableId, { field_name: BUG_COLUMNS.attachments, type: 17 });
    } catch (error) {
      // Another bug's sync running at the same time made it first (Lark refuses the second name): use that one.
      if (error instanceof LarkApiError && (await hasIt())) return true;
      throw error;
    }
    await deps.sync.forgetBugFileTokens(Number(record.app_id), Number(record.id));
    return false;
  }

  return async function syncBugFiles(
    record: TaskRecordRow,
    remote: BitableRecordRead,
    appToken: string,
    tableId: string,
  ): Promise<{ pushed: number; pulled: number }> {
    const files = taskColumns.attachFiles.decode(record.attach_files);
    const cell = bitableFiles(remote.fields[BUG_COLUMNS.attachments]);
    const inCell = new Set(cell.map((f) => f.file_token));
    const local = new Set(files.map((f) => f.fileToken).filter((t): t is string => Boolean(t)));
    const waiting = files.filter((f) => !f.fileToken);
    if (!waiting.length && cell.every((f) => local.has(f.file_token)) && [...local].every((t) => inCell.has(t)))
      return { pushed: 0, pulled: 0 };

    const removedHere = await deps.sync.attachmentTokensEverSeen(Number(record.id));
    const outOfCell = [...local].filter((t) => !inCell.has(t));
    // Out of the cell because someone removed them in Lark — unless the column itself was missing: then they go back.
    const hasColumn = waiting.length || outOfCell.length ? await ensureColumn(record, appToken, tableId) : true;
    const removedInLark = new Set(hasColumn ? outOfCell : []);
    const restored = hasColumn ? [] : outOfCell;
    const kept = cell.filter((f) => local.has(f.file_token) || !removedHere.has(f.file_token));
    // Files new in the cell, as many as the bug may still hold here (the rest stay in Lark's cell).
    const newInCell = kept.filter((f) => !local.has(f.file_token));
    const fresh = newInCell.slice(0, roomForFiles(files.length - removedInLark.size));
    if (fresh.length < newInCell.length) await deps.sync.noteOnce(record, tooManyFilesNote(deps.clock.now()));

    const uploads = (
      await limited(waiting, UPLOAD_CONCURRENCY, async (f): Promise<[string, string] | null> => {
        try {
          // Over 20 MB it goes through Lark's multipart upload, a 4 MB block at a time from the store.
          return [
            f.s3Key,
            await deps.client.uploadMedia(
              appToken,
              await storedFile(deps.blobs, f),
              IMAGE_EXTENSIONS.has(path.extname(f.fileName).toLowerCase()),
            ),
          ];
        } catch (error) {
          // Larger than Lark takes at all: this file stays here (said once), the bug's other files and fields still sync.
          if (!(error instanceof LarkApiError && error.code === MEDIA_TOO_LARGE_CODE)) throw error;
          await deps.sync.noteOnce(record, {
            actor_id: null,
            source: 'lark',
            field: 'larkSyncFailed',
            old_value: null,
            new_value: tooLargeForLarkNote(f.fileName, '飞书多维表格'),
            create_time: deps.clock.now(),
            comment_id: null,
          });
          return null;
        }
      })
    ).filter((u): u is [string, string] => u !== null);

    const next = [...kept.map((f) => f.file_token), ...restored, ...uploads.map(([, token]) => token)];
    if (next.length !== cell.length || next.some((t, i) => t !== cell[i]?.file_token)) {
      await deps.client.updateRecord(appToken, tableId, remote.record_id, {
        [BUG_COLUMNS.attachments]: next.length ? next.map((file_token) => ({ file_token })) : null,
      });
      const after = await deps.client.getRecord(appToken, tableId, remote.record_id);
      await deps.sync.markLarkTime(Number(record.id), Number(after.last_modified_time ?? 0));
    }

    const added: StoredTaskFile[] = [];
    for (const f of fresh) {
      // Larger than kept here (by Lark's word, else by its bytes): it stays only in Lark's cell, said once.
      const download =
        f.size !== null && f.size > LARK_FILE_MAX_BYTES
          ? null
          : await deps.spaced(() => deps.client.downloadMedia(f.file_token));
      const key = attachmentKey(f.name);
      if (!download || !(await storeDownload(deps.blobs, key, download))) {
        await deps.sync.noteOnce(record, tooLargeFromLarkNote(f.name, deps.clock.now()));
        continue;
      }
      added.push({ s3Key: key, fileName: f.name, fileToken: f.file_token });
    }
    if (uploads.length || added.length || removedInLark.size)
      await deps.sync.mergeFiles(Number(record.id), new Map(uploads), added, deps.clock.now(), removedInLark);
    return { pushed: uploads.length + (cell.length - kept.length), pulled: added.length + removedInLark.size };
  };
}
export type BugAttachmentSync = ReturnType<typeof createBugAttachmentSync>;
