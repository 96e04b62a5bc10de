import type { Kysely } from 'kysely';
import type { Selectable } from 'kysely';
import type { Database, VersionSourcesTable } from '../../db/schema.ts';

export type VersionSourceRecord = Selectable<VersionSourcesTable>;
export type SourceOrigin = VersionSourcesTable['origin'];

/** version_sources: which commit of each repository workflow a version was built from (issue 19). */
export function createVersionSourcesRepository(db: Kysely<Database>) {
  return {
    /** A version's sources, resolved or not. */
    async ofVersions(versionIds: number[]): Promise<VersionSourceRecord[]> {
      if (versionIds.length === 0) return [];
      return db.selectFrom('version_sources').selectAll().where('app_version_id', 'in', versionIds).execute();
    },

    /** Writes a version's source in a workflow (the newest word wins: an upload's commit replaces a tag's guess). */
    async put(row: Omit<VersionSourceRecord, 'update_time'>): Promise<void> {
      await db
        .insertInto('version_sources')
        .values({ ...row, update_time: row.create_time })
        .onConflict((oc) =>
          oc.columns(['app_version_id', 'workflow_id']).doUpdateSet({
            commit_id: row.commit_id,
            branch: row.branch,
            origin: row.origin,
            resolved: row.resolved,
            update_time: row.create_time,
          }),
        )
        .execute();
    },

    /** The commits given for versions that a workflow's mirror did not have yet. */
    async pendingIn(workflowId: number): Promise<VersionSourceRecord[]> {
      return db
        .selectFrom('version_sources')
        .selectAll()
        .where('workflow_id', '=', workflowId)
        .where('resolved', '=', 0)
        .execute();
    },

    /**
     * A pending commit was found in one workflow's mirror: that row holds its full id, and the same version's pending
     * guesses of the same commit in the app's other workflows go (a commit belongs to one repository).
     */
    async resolve(versionId: number, workflowId: number, given: string, commitId: string, now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('version_sources')
          .where('app_version_id', '=', versionId)
          .where('workflow_id', '!=', workflowId)
          .where('commit_id', '=', given)
          .where('resolved', '=', 0)
          .execute();
        await trx
          .updateTable('version_sources')
          .set({ commit_id: commitId, resolved: 1, update_time: now })
          .where('app_version_id', '=', versionId)
          .where('workflow_id', '=', workflowId)
          .execute();
      });
    },
  };
}
export type VersionSourcesRepository = ReturnType<typeof createVersionSourcesRepository>;
