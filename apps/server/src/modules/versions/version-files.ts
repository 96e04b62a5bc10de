import { sql, type Kysely } from 'kysely';
import { VersionRemovalMessages, type RemovedFileKind } from '@release/contract';
import { fileUrlsColumn } from '../../db/file-urls-column.ts';
import type { Database } from '../../db/schema.ts';
import { mediaKeyOf } from '../../http/media-links.ts';
import { versionColumns } from './version-columns.ts';

/** Rows LIKE may find for one key before each is compared exactly (only case on SQLite makes them differ). */
const NARROWED_ROWS = 50;

export interface VersionFile {
  kind: RemovedFileKind;
  key: string;
  /** The file's own name; the icon has none. */
  name: string;
}

/** What a version row says about its files. */
export interface VersionFilesRow {
  file_key: string;
  file_name: string;
  icon_key: string | null;
  attach_files: string;
}

/** The stored files a version row names: its package, its icon, its attachments (each key once; an unreadable list names none). */
export function filesOf(version: VersionFilesRow): VersionFile[] {
  const files: VersionFile[] = [{ kind: 'package', key: version.file_key, name: version.file_name }];
  if (version.icon_key) files.push({ kind: 'icon', key: version.icon_key, name: VersionRemovalMessages.icon });
  for (const a of versionColumns.attachFiles.decode(version.attach_files))
    if (a.fileKey) files.push({ kind: 'attachment', key: a.fileKey, name: a.fileName });
  const seen = new Set<string>();
  return files.filter((f) => !seen.has(f.key) && seen.add(f.key));
}

/** A LIKE pattern that matches `text` literally (with `escape '\\'`): `_` and `%` are not wildcards there. */
function literally(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
const likeLiterally = (pattern: string) => sql<string>`${pattern} escape '\\'`;

/**
 * Why a stored file must stay although the builds in `leaving` go: a build that stays names it (package, icon or
 * attachment), an app's icon is it (the first build's icon becomes the app icon), or a snapshot of the app shows
 * it. Null: nothing else names it. Checked when asked, not counted: the references live in these columns already.
 * The key is compared exactly: LIKE (escaped, and case-blind on SQLite) only narrows the rows, each is then read.
 */
export async function keptBecause(
  db: Kysely<Database>,
  file: Pick<VersionFile, 'kind' | 'key'>,
  context: { appId: number; leaving?: readonly number[] },
): Promise<string | null> {
  const { key } = file;
  const leaving = context.leaving ?? [];
  let versions = db
    .selectFrom('app_versions')
    .select(['id', 'file_key', 'icon_key', 'attach_files'])
    .where('removed_time', 'is', null)
    .where((eb) =>
      eb.or([
        eb('file_key', '=', key),
        eb('icon_key', '=', key),
        eb('attach_files', 'like', likeLiterally(`%${literally(JSON.stringify(key))}%`)),
      ]),
    );
  if (leaving.length) versions = versions.where('id', 'not in', [...leaving]);
  const naming = await versions.limit(NARROWED_ROWS).execute();
  if (
    naming.some(
      (v) => v.file_key === key || v.icon_key === key || filesOf({ ...v, file_name: '' }).some((f) => f.key === key),
    )
  )
    return VersionRemovalMessages.keptByVersion;
  // app_icon holds a URL (/api/media/<key>, or an absolute one): the key at its end.
  const icons = await db
    .selectFrom('apps')
    .select('app_icon')
    .where('app_icon', 'like', likeLiterally(`%${literally(key)}`))
    .limit(NARROWED_ROWS)
    .execute();
  if (icons.some((a) => a.app_icon === key || a.app_icon?.endsWith(`/${key}`)))
    return VersionRemovalMessages.keptByAppIcon;
  // Snapshots hold media links (/api/media/<key>) of their own app: only an icon can be among them.
  if (file.kind !== 'icon') return null;
  const items = await db
    .selectFrom('commit_logs')
    .select('file_urls')
    .where('app_id', '=', context.appId)
    .where('file_urls', 'like', likeLiterally(`%${literally(key)}%`))
    .limit(NARROWED_ROWS)
    .execute();
  return items.some((i) => fileUrlsColumn.decode(i.file_urls).some((url) => mediaKeyOf(url) === key))
    ? VersionRemovalMessages.keptBySnapshot
    : null;
}
