import { resignOptions } from '@release/contract';
import type { Kysely, Selectable, Updateable } from 'kysely';
import { jsonColumn } from '../../db/json-column.ts';
import type { Database, Insertable, ResignJobsTable } from '../../db/schema.ts';
import type { ResignOptions } from '../../signing/resign-options.ts';

/**
 * `resign_jobs.options` as asked (checked by the body's schema when stored). A damaged value reads as null (reported
 * once as a process warning): the run's status still answers, and the job fails it rather than sign without them.
 */
const optionsColumn = jsonColumn('resign_jobs.options', resignOptions.nullable(), { fallback: () => null });

/** A run with its options decoded: none asked is `{}`, unreadable is null. */
export type ResignJobRecord = Omit<Selectable<ResignJobsTable>, 'options'> & { options: ResignOptions | null };

function decoded(row: Selectable<ResignJobsTable> | undefined): ResignJobRecord | undefined {
  return row && { ...row, options: row.options === null ? {} : optionsColumn.decode(row.options) };
}

/** Every statement on `resign_jobs`. */
export function createZsignRepository(db: Kysely<Database>) {
  return {
    async insert(row: Insertable<ResignJobsTable>): Promise<number> {
      const inserted = await db.insertInto('resign_jobs').values(row).returning('id').executeTakeFirstOrThrow();
      return Number(inserted.id);
    },
    async find(id: number, executor: Kysely<Database> = db): Promise<ResignJobRecord | undefined> {
      return decoded(await executor.selectFrom('resign_jobs').selectAll().where('id', '=', id).executeTakeFirst());
    },
    async update(id: number, changes: Updateable<ResignJobsTable>, executor: Kysely<Database> = db) {
      await executor.updateTable('resign_jobs').set(changes).where('id', '=', id).execute();
    },
    /** The latest run asked with the same request key that did not fail (the same ask answers with it). */
    async findByRequest(appId: number, requestKey: string): Promise<ResignJobRecord | undefined> {
      const row = await db
        .selectFrom('resign_jobs')
        .selectAll()
        .where('app_id', '=', appId)
        .where('request_key', '=', requestKey)
        .where('status', '!=', 'failed')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return decoded(row);
    },
    /** Whether a version was registered from this stored file (read inside the transaction that settles a run). */
    async hasVersionWithFile(fileKey: string, executor: Kysely<Database> = db): Promise<boolean> {
      return Boolean(
        await executor.selectFrom('app_versions').select('id').where('file_key', '=', fileKey).executeTakeFirst(),
      );
    },
    /** Progress only moves forward while the run is on (a late write from an earlier attempt cannot undo a result). */
    async progress(
      id: number,
      stage: ResignJobsTable['stage'],
      progress: number,
      bytes: { done: number; total: number },
      now: number,
    ) {
      await db
        .updateTable('resign_jobs')
        .set({ stage, progress, bytes_done: bytes.done, bytes_total: bytes.total, update_time: now })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where('progress', '<=', progress)
        .execute();
    },
  };
}
export type ZsignRepository = ReturnType<typeof createZsignRepository>;
