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
  /** logs.knownCommitIds: every commit id the workflow already has. */
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
 * between the timed calls around them (the mirror before knownCommitIds, the read before ingestCommits).
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
  const baseLogs = patch(createCommitLogsRepository(db));
  const logs: CommitLogsRepository = {
    ...baseLogs,
    async knownCommitIds(workflowId) {
      const started = now();
      phases.mirror += started - mark;
      phases.mirroredCpu = ownCpu();
      const ids = await baseLogs.knownCommitIds(workflowId);
      mark = now();
      phases.known += mark - started;
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
      phases.read += started - mark;
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
      const started = now();
      mark = started;
      const result = await sync.syncOnce(workflow);
      const ended = now();
      phases.rest += ended - mark;
      return { ...phases, created: result.created, total: ended - started, result };
    },
  };
}
