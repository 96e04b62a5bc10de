import type { Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.ts';
import { ownCpu } from './cpu-time.ts';
import { createAppMembersRepository } from '../../apps/server/src/modules/apps/app-members.repository.ts';
import { createAppsPolicy } from '../../apps/server/src/modules/apps/apps.policy.ts';
import {
  createCommitIngestService,
  type CommitIngestService,
} from '../../apps/server/src/modules/commit-logs/commit-ingest.service.ts';
import {
  createCommitLogsRepository,
  type CommitLogsRepository,
} from '../../apps/server/src/modules/commit-logs/commit-logs.repository.ts';
import { createRepoSyncService, type SyncResult } from '../../apps/server/src/modules/sync/repo-sync.service.ts';
import { createVersionsRepository } from '../../apps/server/src/modules/versions/versions.repository.ts';
import {
  createWorkflowsRepository,
  type WorkflowRecord,
} from '../../apps/server/src/modules/workflows/workflows.repository.ts';

/** Where one syncOnce spent its time, in ms. */
export interface SyncPhases {
  /** syncMirror: `git clone --bare` the first time, then `git fetch` (and the ref reads around it). */
  mirror: number;
  /** logs.knownAmong: the walked tips checked, then the store asked about each chunk of the walk. */
  known: number;
  /** readNewCommits: the streamed `git log` walk and its parsing, the tags, the files calls (the gaps between the batches' ingests; the walk also goes on while a batch is stored, so phases overlap). */
  read: number;
  /** ingestCommits minus its inserts: building the rows (JSON.stringify of tags and files, the committer filter). */
  rows: number;
  /** logs.insertNew: the INSERT … ON CONFLICT DO NOTHING statements, one transaction per sync. */
  insert: number;
  /** The rest: workflows.update with the sync time. */
  rest: number;
  created: number;
  total: number;
  /** This process's and its finished children's CPU when the mirror was up to date (the clone or fetch done). */
  mirroredCpu: { node: number; git: number };
}

const now = () => performance.now();

/**
 * The real repository sync (createRepoSyncService over the real repositories and ingest service), with the calls it
 * makes into them timed. syncMirror and readNewCommits are module imports of the service: their time is the gap
 * between the timed calls around them (the mirror before the first knownAmong, the read before ingestCommits, less
 * the knownAmong calls the walk made).
 * `patch` swaps repository functions (to try a proposed change beside the shipped code).
 */
export function timedSync(
  db: Kysely<Database>,
  mirrorsDir: string,
  patch: (repo: CommitLogsRepository) => CommitLogsRepository = (repo) => repo,
) {
  const clock = { now: () => Date.now() };
  const fresh = (): SyncPhases => ({
    mirror: 0,
    known: 0,
    read: 0,
    rows: 0,
    insert: 0,
    rest: 0,
    created: 0,
    total: 0,
    mirroredCpu: ownCpu(),
  });
  let phases = fresh();
  let mark = 0;
  /** Whether this sync's first knownAmong (the walked tips, right after the mirror) came. */
  let mirrored = false;
  /** knownAmong time since `mark`: inside the walk, not part of it. */
  let knownSinceMark = 0;
  const baseLogs = patch(createCommitLogsRepository(db));
  const logs: CommitLogsRepository = {
    ...baseLogs,
    async knownAmong(workflowId, commitIds) {
      const started = now();
      if (!mirrored) {
        mirrored = true;
        phases.mirror += started - mark;
        phases.mirroredCpu = ownCpu();
        mark = started;
      }
      const ids = await baseLogs.knownAmong(workflowId, commitIds);
      const spent = now() - started;
      phases.known += spent;
      knownSinceMark += spent;
      return ids;
    },
    async insertNew(rows) {
      const started = now();
      const inserted = await baseLogs.insertNew(rows);
      phases.insert += now() - started;
      return inserted;
    },
  };
  const workflows = createWorkflowsRepository(db);
  const baseIngest = createCommitIngestService({ logs, workflows, versions: createVersionsRepository(db), clock });
  const ingest: CommitIngestService = {
    ...baseIngest,
    async ingestCommits(workflow, commits) {
      const started = now();
      phases.read += Math.max(0, started - mark - knownSinceMark);
      knownSinceMark = 0;
      const insertBefore = phases.insert;
      const created = await baseIngest.ingestCommits(workflow, commits);
      mark = now();
      phases.rows += mark - started - (phases.insert - insertBefore);
      return created;
    },
  };
  const members = createAppMembersRepository(db);
  const sync = createRepoSyncService({
    workflows,
    logs,
    ingest,
    policy: createAppsPolicy(members),
    mirrorsDir,
    clock,
    allowFileRemotes: true,
  });
  return {
    workflows,
    /** One syncOnce of the workflow, with its phases. */
    async syncOnce(workflow: WorkflowRecord): Promise<SyncPhases & { result: SyncResult }> {
      phases = fresh();
      mirrored = false;
      knownSinceMark = 0;
      const started = now();
      mark = started;
      const result = await sync.syncOnce(workflow);
      const ended = now();
      phases.rest += Math.max(0, ended - mark - knownSinceMark);
      return { ...phases, created: result.created, total: ended - started, result };
    },
  };
}
