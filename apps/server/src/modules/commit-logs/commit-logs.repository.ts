import { wikiEventMetadata } from '@release/contract';
import { CompiledQuery, PostgresAdapter, sql, type Kysely } from 'kysely';
import type { CommitLogsTable, Database, Insertable } from '../../db/schema.ts';
import { pgCopierOf } from '../../db/pg-copy.ts';
import { yieldToEventLoop } from '../../lib/event-loop.ts';
import { countCalendar, type CalendarFilter } from './commit-log-calendar.query.ts';
import { commitLogColumns } from './commit-log-columns.ts';
import { knownAmong } from './commit-log-known.query.ts';
import { pageIds, type PageFilter } from './commit-log-page.query.ts';

export interface CommitLogFilter extends PageFilter {
  workflowIds?: number[];
  /** For a user's trend: only apps the viewer may see (undefined = all, for admins). */
  appIds?: number[];
  /** Items strictly older than this (commit time, id), newest first: index-bound at any depth. */
  before?: { commitTime: number; id: number };
}

/**
 * SQLite rows per statement (18 columns: 4,500 parameters). One statement text, prepared once per connection; the
 * event loop gets a turn between statements (a 250-row statement runs ~3 ms), so git's output keeps being read.
 */
const SQLITE_INSERT_ROWS = 250;
const PG_INSERT_ROWS = 10_000;
/**
 * PostgreSQL: from this many rows (a sync's batches; webhooks bring a few) the rows go by COPY, in a transaction of
 * its own: no array parameters to build and parse, no speculative insertion (100,000 rows sent by a node client in
 * 10,000-row statements: 3.7 s by unnest, 2.8 s by COPY). The rows were checked against the workflow's known ids;
 * should another sync or a webhook have stored one meanwhile, the COPY fails whole on the unique index and the
 * insert below skips what is there.
 */
const PG_COPY_MIN_ROWS = 500;
/**
 * Every column an ingested item can carry, with its PostgreSQL array type (for unnest) and the value of an omitted
 * one: unnest sends every column, and NULL would not take the column's default.
 */
const INSERT_COLUMNS = [
  ['app_id', 'bigint', null],
  ['workflow_id', 'bigint', null],
  ['commit_id', 'text', null],
  ['commit_time', 'bigint', null],
  ['branch', 'text', null],
  ['tag_name', 'text', null],
  ['tag_summary', 'text', '[]'],
  ['commit_message', 'text', null],
  ['description', 'text', ''],
  ['file_urls', 'text', '[]'],
  ['remark', 'text', null],
  ['author_email', 'text', null],
  ['source_url', 'text', null],
  ['app_version_id', 'bigint', null],
  ['metadata', 'text', null],
  ['is_filtered', 'integer', 0],
  ['create_time', 'bigint', null],
  ['update_time', 'bigint', null],
] as const satisfies ReadonlyArray<readonly [keyof CommitLogsTable, string, string | number | null]>;

const COLUMN_NAMES = INSERT_COLUMNS.map(([column]) => column);

const sqliteInsertStatements = new Map<number, string>();
/** `INSERT … VALUES (?, …) × rows ON CONFLICT DO NOTHING`, one text per row count (prepared once per connection). */
function sqliteInsertSql(rows: number): string {
  let text = sqliteInsertStatements.get(rows);
  if (text === undefined) {
    const values = `(${INSERT_COLUMNS.map(() => '?').join(', ')})`;
    text = `insert into "commit_logs" (${INSERT_COLUMNS.map(([column]) => `"${column}"`).join(', ')}) values ${Array.from({ length: rows }, () => values).join(', ')} on conflict ("workflow_id", "commit_id") do nothing`;
    if (rows === SQLITE_INSERT_ROWS) sqliteInsertStatements.set(rows, text);
  }
  return text;
}

/** How much of a message the filter reads (merge commits are told by their first words). */
export const MESSAGE_HEAD = 64;
/** Ids per `IN (…)` list: below SQLite's parameter limit. */
const ID_CHUNK = 5_000;
const UNIQUE_VIOLATION = '23505';

/** A row with its tag summary and media links decoded (commit-log-columns.ts): services never parse them. */
type Decoded<R> = Omit<R, 'tag_summary' | 'file_urls'> & { tag_summary: string[]; file_urls: string[] };
function decode<R extends { tag_summary: string; file_urls: string }>(row: R): Decoded<R> {
  return {
    ...row,
    tag_summary: commitLogColumns.tagSummary.decode(row.tag_summary),
    file_urls: commitLogColumns.fileUrls.decode(row.file_urls),
  };
}

/** What an edit may change; the media links as a list, encoded here. */
export type CommitLogChanges = Partial<Omit<Insertable<CommitLogsTable>, 'tag_summary' | 'file_urls'>> & {
  file_urls?: string[];
};

export function createCommitLogsRepository(db: Kysely<Database>) {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Undefined inside a caller's transaction: rows must join it.
  const copier = pgCopierOf(db);
  const repository = {
    /** Newest first; one row more than asked tells whether there is more. The page is chosen by pageIds (indexes only), then joined. */
    async list(filter: CommitLogFilter) {
      const page = pageIds(db, filter);
      return db
        .selectFrom('commit_logs as c')
        .innerJoin('workflows as w', 'w.id', 'c.workflow_id')
        .innerJoin('apps as a', 'a.id', 'c.app_id')
        .leftJoin('app_versions as v', 'v.id', 'c.app_version_id')
        .leftJoin('users as u', 'u.id', 'v.upload_by')
        .where('c.id', 'in', db.selectFrom(page).select('page.id'))
        .selectAll('c')
        .select([
          'w.tab_name as tab_name',
          'w.repo_path as repo_path',
          'a.app_name as app_name',
          'v.native_package_type as native_package_type',
          'v.file_key as file_key',
          'v.file_name as file_name',
          'v.index_no as index_no',
          'v.app_version as app_version',
          'v.build as build',
          'v.removed_time as version_removed_time',
          'u.username as upload_by_name',
        ])
        .orderBy('c.commit_time', 'desc')
        .orderBy('c.id', 'desc')
        .execute()
        .then((rows) => rows.map(decode));
    },

    /** A calendar window's counts per cell, in one read (commit-log-calendar.query.ts). */
    calendar: (filter: CalendarFilter) => countCalendar(db, filter),

    async boundVersions(commitLogIds: number[]) {
      if (!commitLogIds.length) return [];
      return db
        .selectFrom('commit_log_versions as b')
        .innerJoin('app_versions as v', 'v.id', 'b.app_version_id')
        .select([
          'b.commit_log_id as commitLogId',
          'v.id as appVersionId',
          'v.index_no as indexNo',
          'v.app_version as appVersion',
          'v.build as build',
          'v.native_package_type as type',
          'v.removed_time as removedTime',
        ])
        .where('b.commit_log_id', 'in', commitLogIds)
        .orderBy('v.index_no', 'desc')
        .execute();
    },

    /** A workflow's stored items of these commits (what the changes between two builds link to). */
    async byCommits(workflowId: number, commitIds: readonly string[]) {
      if (commitIds.length === 0) return [];
      return db
        .selectFrom('commit_logs')
        .select(['id', 'commit_id', 'branch', 'tag_name', 'is_filtered', 'remark'])
        .where('workflow_id', '=', workflowId)
        .where('commit_id', 'in', [...commitIds])
        .execute();
    },

    /** A workflow's shown items with after < commit time ≤ until, newest first (at most `limit`), and how many there are. */
    async inWindow(workflowId: number, after: number, until: number, limit: number) {
      const range = db
        .selectFrom('commit_logs')
        .where('workflow_id', '=', workflowId)
        .where('is_filtered', '=', 0)
        .where('commit_time', '>', after)
        .where('commit_time', '<=', until);
      const [rows, count] = await Promise.all([
        range
          .select(['id', 'commit_id', 'commit_time', 'commit_message', 'remark', 'branch', 'tag_name'])
          .orderBy('commit_time', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .execute(),
        range.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      ]);
      return { rows, total: Number(count?.n ?? 0) };
    },

    /** The items bound to a version by hand (snapshots), newest first. */
    async boundTo(appVersionId: number, limit: number) {
      return db
        .selectFrom('commit_log_versions as b')
        .innerJoin('commit_logs as c', 'c.id', 'b.commit_log_id')
        .innerJoin('workflows as w', 'w.id', 'c.workflow_id')
        .select([
          'c.id',
          'c.commit_id',
          'c.commit_time',
          'c.commit_message',
          'c.remark',
          'c.branch',
          'c.tag_name',
          'w.tab_name',
        ])
        .where('b.app_version_id', '=', appVersionId)
        .orderBy('c.commit_time', 'desc')
        .orderBy('c.id', 'desc')
        .limit(limit)
        .execute();
    },

    async findById(id: number) {
      const row = await db.selectFrom('commit_logs').selectAll().where('id', '=', id).executeTakeFirst();
      return row && decode(row);
    },
    async findByCommit(workflowId: number, commitId: string) {
      const row = await db
        .selectFrom('commit_logs')
        .selectAll()
        .where('workflow_id', '=', workflowId)
        .where('commit_id', '=', commitId)
        .executeTakeFirst();
      return row && decode(row);
    },
    /** Up to two items whose git id starts with this lower-case hex prefix: a range of the unique (workflow_id, commit_id) index. */
    async findByCommitPrefix(workflowId: number, prefix: string) {
      if (!/^[0-9a-f]+$/.test(prefix)) return [];
      return db
        .selectFrom('commit_logs')
        .selectAll()
        .where('workflow_id', '=', workflowId)
        .where('commit_id', '>=', prefix)
        .where('commit_id', '<', `${prefix}g`)
        .orderBy('commit_id')
        .limit(2)
        .execute()
        .then((rows) => rows.map(decode));
    },
    /**
     * The metadata of these items that `readerId` may see (undefined: every item, for admins): items of apps the
     * reader holds no permit on are left out, by the same query (up to 500 ids in one statement).
     */
    async metadataOf(ids: number[], readerId: number | undefined) {
      if (!ids.length) return [];
      let q = db
        .selectFrom('commit_logs as c')
        .select(['c.id as id', 'c.metadata as metadata'])
        .where('c.id', 'in', ids)
        .where('c.metadata', 'is not', null);
      if (readerId !== undefined)
        q = q.where('c.app_id', 'in', (eb) =>
          eb.selectFrom('app_users').select('app_id').where('user_id', '=', readerId),
        );
      return (await q.orderBy('c.id').execute()).flatMap((row) =>
        row.metadata === null ? [] : [{ id: row.id, metadata: row.metadata }],
      );
    },
    /** Of these items (as metadataOf), the wiki edits: metadata that is not a wiki event (or is damaged) is left out. */
    async wikiEventsOf(ids: number[], readerId: number | undefined) {
      return (await repository.metadataOf(ids, readerId)).flatMap((row) => {
        const parsed = wikiEventMetadata.safeParse(commitLogColumns.metadata.decode(row.metadata));
        return parsed.success ? [{ id: row.id, event: parsed.data }] : [];
      });
    },
    async update(id: number, changes: CommitLogChanges) {
      const { file_urls, ...rest } = changes;
      const set = file_urls === undefined ? rest : { ...rest, file_urls: commitLogColumns.fileUrls.encode(file_urls) };
      await db.updateTable('commit_logs').set(set).where('id', '=', id).execute();
    },
    /**
     * Inserts what is new; a commit already known to the workflow is left as it is (ON CONFLICT DO NOTHING). Answers
     * how many were new. One transaction for the call (a first sync brings thousands of commits). SQLite: 250-row
     * statements of one prepared text, parameters straight from the rows (no query builder), the event loop free
     * between them: node:sqlite runs on it, and a sync's git walk and parsing go on meanwhile instead of stalling for
     * a whole batch. PostgreSQL: one `INSERT … SELECT FROM unnest(…)` of 18 array parameters per 10,000 rows, parsed
     * and planned once (bench/git-ingest.ts: 12.8 s → 5.7 s of inserts for 100,000 commits, where 200-row statements
     * of 3,600 scalar parameters ran before); from PG_COPY_MIN_ROWS rows outside a transaction, a COPY first.
     */
    async insertNew(rows: Array<Insertable<CommitLogsTable>>): Promise<number> {
      if (rows.length === 0) return 0;
      if (copier && rows.length >= PG_COPY_MIN_ROWS) {
        const values = rows.map((row) => INSERT_COLUMNS.map(([column, , omitted]) => row[column] ?? omitted));
        try {
          return await copier.copyRows('commit_logs', COLUMN_NAMES, values);
        } catch (error) {
          if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
        }
      }
      const run = async (trx: Kysely<Database>): Promise<number> => {
        let inserted = 0;
        if (isPostgres) {
          for (let i = 0; i < rows.length; i += PG_INSERT_ROWS) {
            const part = rows.slice(i, i + PG_INSERT_ROWS);
            const arrays = INSERT_COLUMNS.map(
              ([column, type, omitted]) => sql`${part.map((row) => row[column] ?? omitted)}::${sql.raw(type)}[]`,
            );
            const result =
              await sql`insert into commit_logs (${sql.join(INSERT_COLUMNS.map(([column]) => sql.ref(column)))})
              select * from unnest(${sql.join(arrays)})
              on conflict (workflow_id, commit_id) do nothing`.execute(trx);
            inserted += Number(result.numAffectedRows ?? 0);
          }
          return inserted;
        }
        for (let i = 0; i < rows.length; i += SQLITE_INSERT_ROWS) {
          // node:sqlite runs on the event loop: between chunks git's output is read and parsed meanwhile.
          if (i > 0) await yieldToEventLoop();
          const part = rows.slice(i, i + SQLITE_INSERT_ROWS);
          const parameters: unknown[] = [];
          for (const row of part)
            for (const [column, , omitted] of INSERT_COLUMNS) parameters.push(row[column] ?? omitted);
          const result = await trx.executeQuery(CompiledQuery.raw(sqliteInsertSql(part.length), parameters));
          inserted += Number(result.numAffectedRows ?? 0);
        }
        return inserted;
      };
      // Inside a caller's transaction (document events) the rows join it.
      return db.isTransaction ? run(db) : db.transaction().execute(run);
    },
    async replaceBindings(commitLogId: number, appVersionIds: number[]) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('commit_log_versions').where('commit_log_id', '=', commitLogId).execute();
        if (appVersionIds.length)
          await trx
            .insertInto('commit_log_versions')
            .values(appVersionIds.map((id) => ({ commit_log_id: commitLogId, app_version_id: id })))
            .execute();
      });
    },
    /**
     * Distinct committer names in the given apps (undefined = all apps), by a skip scan of (app_id, remark): one index
     * probe per name and app (the next name after the previous one), not a read of every item of the apps.
     */
    async committers(appIds: number[] | undefined) {
      if (appIds && appIds.length === 0) return [];
      const apps = appIds ? sql`where a.id in (${sql.join(appIds)})` : sql``;
      const result = await sql<{ remark: string }>`
        with recursive r(app_id, remark) as (
          select a.id, (select min(remark) from commit_logs where app_id = a.id) from apps a ${apps}
          union all
          select r.app_id, (select min(remark) from commit_logs where app_id = r.app_id and remark > r.remark) from r where r.remark is not null
        )
        select distinct remark from r where remark is not null order by remark limit 2000`.execute(db);
      return result.rows.map((r) => r.remark);
    },
    /** What the committer filter reads of a workflow's items after `afterId`, by id: author and the start of the message. */
    async filterInputs(workflowId: number, afterId: number, limit: number) {
      return db
        .selectFrom('commit_logs')
        .select([
          'id',
          'remark',
          'author_email',
          sql<string>`substr(commit_message, 1, ${MESSAGE_HEAD})`.as('head'),
          'is_filtered',
        ])
        .where('workflow_id', '=', workflowId)
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    /** Hides (1) or shows (0) these items, in one transaction. */
    async setFiltered(ids: { hide: number[]; show: number[] }, now: number) {
      await db.transaction().execute(async (trx) => {
        for (const [value, list] of [
          [1, ids.hide],
          [0, ids.show],
        ] as const) {
          for (let i = 0; i < list.length; i += ID_CHUNK) {
            await trx
              .updateTable('commit_logs')
              .set({ is_filtered: value, update_time: now })
              .where('id', 'in', list.slice(i, i + ID_CHUNK))
              .execute();
          }
        }
      });
    },
    /** Which of these commit ids the workflow already has (commit-log-known.query.ts: index probes, any history size). */
    knownAmong: (workflowId: number, commitIds: readonly string[]) => knownAmong(db, workflowId, commitIds),
    /** The newest svn revision stored for a workflow (`r123` → 123). */
    async lastSvnRevision(workflowId: number): Promise<number | null> {
      // The newest 50 shown and the newest 50 hidden items: each one range of (workflow_id, is_filtered, commit_time, id).
      const newest = (isFiltered: 0 | 1) =>
        db
          .selectFrom('commit_logs')
          .select('commit_id')
          .where('workflow_id', '=', workflowId)
          .where('is_filtered', '=', isFiltered)
          .where('commit_id', 'like', 'r%')
          .orderBy('commit_time', 'desc')
          .limit(50)
          .execute();
      const rows = (await Promise.all([newest(0), newest(1)])).flat();
      const revisions = rows.map((r) => Number(r.commit_id.slice(1))).filter(Number.isFinite);
      return revisions.length ? Math.max(...revisions) : null;
    },
    /** A tag pushed onto a commit the workflow already has. */
    async setTag(workflowId: number, commitId: string, tagName: string, summary: string, now: number) {
      await db
        .updateTable('commit_logs')
        .set({
          tag_name: tagName,
          tag_summary: commitLogColumns.tagSummary.encode(summary ? [summary] : []),
          update_time: now,
        })
        .where('workflow_id', '=', workflowId)
        .where('commit_id', '=', commitId)
        .execute();
    },
    async recordDelivery(workflowId: number, key: string, now: number): Promise<boolean> {
      const result = await db
        .insertInto('webhook_deliveries')
        .values({ workflow_id: workflowId, delivery_key: key, create_time: now })
        .onConflict((oc) => oc.columns(['workflow_id', 'delivery_key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
  return repository;
}
export type CommitLogsRepository = ReturnType<typeof createCommitLogsRepository>;
export type CommitLogListRow = Awaited<ReturnType<CommitLogsRepository['list']>>[number];
