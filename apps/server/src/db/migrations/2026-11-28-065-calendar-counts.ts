import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * Calendar counts (issue 23): how many items each workflow has per UTC day and per UTC hour, shown and hidden apart
 * (commit_log_days, commit_log_hours: workflow_id, is_filtered, slot = commit_time div the unit, n). The unfiltered
 * calendar reads them instead of the items: a window's whole days from the day counts, the days a viewer's midnight
 * cuts (any zone a whole number of hours from UTC) from the hour counts. Triggers on commit_logs keep them in the
 * statement's own transaction, whatever writes: ingest (INSERT, PostgreSQL's COPY), hide/unhide and edits (UPDATE),
 * deletes and a workflow's removal (its cascade). SQLite: a row trigger (one upsert per unit). PostgreSQL: a statement
 * trigger over the transition tables (one grouped upsert per unit and statement, not one per row). A slot whose count
 * falls to 0 is removed. Backfilled from the items here.
 */
const UNITS = [
  ['commit_log_days', 86_400_000],
  ['commit_log_hours', 3_600_000],
] as const;

async function sqliteUp(db: Kysely<any>): Promise<void> {
  const countIn = UNITS.map(
    ([table, ms]) =>
      `insert into ${table} (workflow_id, is_filtered, slot, n) values (NEW.workflow_id, NEW.is_filtered, NEW.commit_time / ${ms}, 1)
         on conflict (workflow_id, is_filtered, slot) do update set n = n + 1;`,
  ).join('\n');
  const countOut = UNITS.map(([table, ms]) => {
    const key = `workflow_id = OLD.workflow_id and is_filtered = OLD.is_filtered and slot = OLD.commit_time / ${ms}`;
    return `update ${table} set n = n - 1 where ${key}; delete from ${table} where ${key} and n <= 0;`;
  }).join('\n');
  await sql.raw(`create trigger commit_logs_count_insert after insert on commit_logs begin ${countIn} end`).execute(db);
  await sql
    .raw(`create trigger commit_logs_count_delete after delete on commit_logs begin ${countOut} end`)
    .execute(db);
  await sql
    .raw(
      `create trigger commit_logs_count_update after update of workflow_id, is_filtered, commit_time on commit_logs
       when OLD.workflow_id is not NEW.workflow_id or OLD.is_filtered is not NEW.is_filtered or OLD.commit_time is not NEW.commit_time
       begin ${countOut} ${countIn} end`,
    )
    .execute(db);
}

async function postgresUp(db: Kysely<any>): Promise<void> {
  // Net change per slot of one statement: + the rows it added, - the rows it removed; zeros are left alone. Then the
  // slots the removed rows left empty go (a second statement: a WITH's parts do not see each other's changes).
  const side = (rows: 'added' | 'removed', ms: number) =>
    `select workflow_id, is_filtered, commit_time / ${ms} as slot, ${rows === 'added' ? '' : '-'}count(*) as n from ${rows} group by 1, 2, 3`;
  const apply = (table: string, ms: number, parts: ReadonlyArray<'added' | 'removed'>) => `
    insert into ${table} as t (workflow_id, is_filtered, slot, n)
      select workflow_id, is_filtered, slot, sum(n) from (${parts.map((p) => side(p, ms)).join(' union all ')}) p
      group by workflow_id, is_filtered, slot having sum(n) <> 0
    on conflict (workflow_id, is_filtered, slot) do update set n = t.n + excluded.n;
    ${
      parts.includes('removed')
        ? `delete from ${table} t where t.n <= 0
             and (t.workflow_id, t.is_filtered, t.slot) in (select workflow_id, is_filtered, commit_time / ${ms} from removed);`
        : ''
    }`;
  for (const [event, parts] of [
    ['insert', ['added']],
    ['delete', ['removed']],
    ['update', ['added', 'removed']],
  ] as const) {
    const body = UNITS.map(([table, ms]) => apply(table, ms, parts)).join('\n');
    await sql
      .raw(
        `create function commit_logs_count_${event}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`,
      )
      .execute(db);
    const referencing = parts.map((p) => (p === 'added' ? 'new table as added' : 'old table as removed')).join(' ');
    await sql
      .raw(
        `create trigger commit_logs_count_${event} after ${event} on commit_logs referencing ${referencing}
         for each statement execute function commit_logs_count_${event}()`,
      )
      .execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [table, ms] of UNITS) {
    await db.schema
      .createTable(table)
      .addColumn('workflow_id', 'bigint', (c) => c.notNull())
      .addColumn('is_filtered', 'integer', (c) => c.notNull())
      .addColumn('slot', 'bigint', (c) => c.notNull())
      .addColumn('n', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pkey`, ['workflow_id', 'is_filtered', 'slot'])
      // SQLite: the rows are the key's b-tree (n read with the key, no second lookup per slot).
      .$call((q) => (postgres ? q : q.modifyEnd(sql`without rowid`)))
      .execute();
    await sql
      .raw(
        `insert into ${table} (workflow_id, is_filtered, slot, n)
         select workflow_id, is_filtered, commit_time / ${ms}, count(*) from commit_logs group by 1, 2, 3`,
      )
      .execute(db);
  }
  await (postgres ? postgresUp(db) : sqliteUp(db));
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const event of ['insert', 'delete', 'update']) {
    await sql.raw(`drop trigger if exists commit_logs_count_${event}${postgres ? ' on commit_logs' : ''}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists commit_logs_count_${event}()`).execute(db);
  }
  for (const [table] of UNITS) await db.schema.dropTable(table).execute();
}
