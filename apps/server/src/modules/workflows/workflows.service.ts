import {
  WorkflowMessages,
  branchNames,
  nextOrderNo,
  toStoredBranches,
  type SaveWorkflowWithRobotBody,
  type WorkflowRowWithRobot,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { redactRepoUrl, restoreRepoSecret } from '../../integrations/git/remote-url.ts';
import type { RepoHostGuard } from '../../integrations/repo-access/repo-host-guard.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/crypto.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import { assertRobotUrl, type RobotHosts } from '../../integrations/robot-destination.ts';
import { assertRepoPath } from './repo-path.ts';
import type { WorkflowRecord, WorkflowsRepository } from './workflows.repository.ts';
import { sameCommitters } from './workflow-columns.ts';

type SaveWorkflowBody = SaveWorkflowWithRobotBody;

/** The group robot of a workflow: allowed hosts, and where autoPush starts when switched on. */
export interface WorkflowRobotDeps {
  hosts: RobotHosts;
  lastItemId(workflowId: number): Promise<number>;
}

export const WEBHOOK_PATH = '/api/workflow/webhook/';

/** What a workflow's save asks of its items (commit ingest, modules/commit-logs): fill or filter them again. */
export interface WorkflowItems {
  /** A package workflow lists the app's versions it had before it was made. */
  backfillPackages(workflowId: number): Promise<unknown>;
  /** Committer filters changed: the items are filtered again (answers how many are shown). */
  refilter(workflow: WorkflowRecord): Promise<number>;
}

export function createWorkflowsService(deps: {
  workflows: WorkflowsRepository;
  policy: AppsPolicy;
  box: SecretBox;
  ingest: WorkflowItems;
  clock: Clock;
  robots: WorkflowRobotDeps;
  /** ALLOW_FILE_REPOSITORIES: file:// git and svn addresses are accepted. */
  allowFileRemotes: boolean;
  /** The admin's host rules for repository addresses. */
  guard: RepoHostGuard;
  /** A repository workflow was saved new, or with another address, kind or branches: its first sync is queued. */
  onRepoSaved?: (workflowId: number) => Promise<unknown>;
}) {
  const { workflows, policy, box, ingest, clock, robots } = deps;

  /** The signing secret is write-only: undefined keeps the stored one, '' or null removes it. */
  function robotSecret(body: SaveWorkflowBody): { robot_secret?: string | null } {
    if (body.robotSecret === undefined) return {};
    return { robot_secret: body.robotSecret ? box.seal(body.robotSecret) : null };
  }

  async function editable(editor: AuthUser, id: number): Promise<WorkflowRecord> {
    const workflow = await workflows.findById(id);
    if (!workflow) throw AppError.notFound(WorkflowMessages.notFound);
    await policy.assertCanEdit(editor, workflow.app_id);
    return workflow;
  }

  function fields(body: SaveWorkflowBody) {
    // A robot address may only point at the configured Lark/WeCom hosts (no requests elsewhere).
    assertRobotUrl(body.robotUrl, robots.hosts, '机器人地址');
    const repository = body.contentType === 'default';
    return {
      tab_name: body.tabName,
      content_type: body.contentType,
      manage_type: body.manageType ?? null,
      repo_type: repository ? (body.repoType ?? null) : null,
      repo_path: repository && body.repoType !== 'other' ? (body.repoPath ?? null) : null,
      default_branch: toStoredBranches(body.defaultBranch),
      committers: body.committers,
      robot_url: body.robotUrl ?? null,
      auto_push: body.autoPush ? 1 : 0,
      package_type: body.contentType === 'package' ? (body.packageType ?? null) : null,
      enterprise_name: body.enterpriseName ?? null,
      update_time: clock.now(),
    };
  }

  return {
    /** The app's tabs in order; webhook addresses and secrets only for those who may edit. */
    async list(viewer: AuthUser, appId: number, publicBase: string): Promise<WorkflowRowWithRobot[]> {
      const access = await policy.assertCanView(viewer, appId);
      const rows = await workflows.listByApp(appId);
      return rows.map((w) => present(w, access !== 'view', publicBase, box));
    },

    async create(editor: AuthUser, body: SaveWorkflowBody): Promise<{ id: number }> {
      await policy.assertCanEdit(editor, body.appId);
      const changes = fields(body);
      await assertRepoPath(changes, deps.allowFileRemotes, deps.guard);
      const existing = await workflows.listByApp(body.appId);
      const now = clock.now();
      const id = await workflows.insert({
        app_id: body.appId,
        ...changes,
        ...robotSecret(body),
        order_no: nextOrderNo(existing.map((w) => w.order_no)),
        webhook_token: randomToken().slice(0, 32),
        webhook_secret: box.seal(randomToken()),
        create_by: editor.userId,
        create_time: now,
      });
      // A package workflow shows every version already published.
      if (body.contentType === 'package') await ingest.backfillPackages(id);
      // autoPush sends what arrives from now on, not the history.
      await workflows.update(id, { auto_push_cursor: await robots.lastItemId(id) });
      // Its history shows now, whoever saved it (the web or the API), not at the next poll.
      if (isPolled(changes)) await deps.onRepoSaved?.(id);
      return { id };
    },

    async update(editor: AuthUser, body: SaveWorkflowBody & { id: number }) {
      const workflow = await editable(editor, body.id);
      if (workflow.app_id !== body.appId) throw AppError.badRequest('工作流不属于该应用');
      const given = fields(body);
      // The address as it was shown (its password `***`) keeps the stored password.
      const changes = {
        ...given,
        repo_path: given.repo_path === null ? null : restoreRepoSecret(given.repo_path, workflow.repo_path),
      };
      // A new repository starts a new history: the sync state belongs to the old one.
      const moved = changes.repo_path !== workflow.repo_path || changes.repo_type !== workflow.repo_type;
      // A stored address this server cannot read is told by the tab; a new one is refused before it is saved.
      if (moved) await assertRepoPath(changes, deps.allowFileRemotes, deps.guard);
      const branches = (stored: string | null) => branchNames(stored).sort().join(',');
      const resync =
        isPolled(changes) && (moved || branches(changes.default_branch) !== branches(workflow.default_branch));
      await workflows.update(body.id, {
        ...changes,
        ...robotSecret(body),
        ...(resync ? { last_sync_time: null, last_sync_error: null } : {}),
      });
      if (resync) await deps.onRepoSaved?.(body.id);
      if (body.contentType === 'package' && workflow.content_type !== 'package') await ingest.backfillPackages(body.id);
      // Another committer filter hides and shows what is stored now, not only what arrives later.
      if (changes.content_type === 'default' && !sameCommitters(changes.committers, workflow.committers))
        await ingest.refilter({ ...workflow, ...changes });
      // Switched on (again): what came while it was off is history, not news.
      if (changes.auto_push === 1 && workflow.auto_push !== 1)
        await workflows.update(body.id, { auto_push_cursor: await robots.lastItemId(body.id) });
    },

    /** SPEC §4: the new 1-based order of the app's tabs (the summary tab is never sent). */
    async updateOrder(editor: AuthUser, orders: Array<{ id: number; orderNo: number }>) {
      const rows = await workflows.findByIds(orders.map((o) => o.id));
      const appIds = new Set(rows.map((w) => w.app_id));
      if (rows.length !== orders.length || appIds.size !== 1)
        throw AppError.badRequest('排序的工作流必须属于同一个应用');
      const appId = rows[0]?.app_id ?? 0;
      await policy.assertCanEdit(editor, appId);
      await workflows.setOrders(appId, orders);
    },

    async remove(editor: AuthUser, id: number) {
      await editable(editor, id);
      await workflows.delete(id);
    },
  };
}
export type WorkflowsService = ReturnType<typeof createWorkflowsService>;

/** git and svn repository workflows are polled (and synced when saved). */
function isPolled(w: { content_type: string; repo_type: string | null }): boolean {
  return w.content_type === 'default' && (w.repo_type === 'git' || w.repo_type === 'svn');
}

export const PUSH_PATH = '/api/workflow/push/';
const PUSHED_REPO_TYPES = new Set(['JPS', 'JPS_GAME', 'wiki', 'other']);

/** Git workflows receive host webhooks; custom ones (and JPS, wiki, other) receive our push API. */
function inboundPath(w: WorkflowRecord): string | null {
  if (w.content_type === 'default' && w.repo_type === 'git') return WEBHOOK_PATH;
  if (w.content_type === 'custom' || (w.content_type === 'default' && PUSHED_REPO_TYPES.has(w.repo_type ?? '')))
    return PUSH_PATH;
  return null;
}

export function present(w: WorkflowRecord, canEdit: boolean, publicBase: string, box: SecretBox): WorkflowRowWithRobot {
  const inbound = canEdit ? inboundPath(w) : null;
  return {
    id: w.id,
    appId: w.app_id,
    tabName: w.tab_name,
    contentType: w.content_type,
    manageType: w.manage_type,
    repoType: w.repo_type,
    // A password or token in the address is never shown back.
    repoPath: w.repo_path === null ? null : redactRepoUrl(w.repo_path),
    defaultBranch: w.default_branch,
    committers: w.committers,
    robotUrl: canEdit ? w.robot_url : null,
    autoPush: w.auto_push === 1,
    packageType: w.package_type,
    orderNo: w.order_no,
    isSummary: false,
    summaryId: null,
    enterpriseName: w.enterprise_name,
    webhookUrl: inbound ? `${publicBase}${inbound}${w.webhook_token}` : null,
    webhookSecret: inbound ? box.open(w.webhook_secret) : null,
    lastSyncTime: w.last_sync_time,
    lastSyncError: w.last_sync_error,
    hasRobotSecret: canEdit && Boolean(w.robot_secret),
  };
}
