import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { decodePageToken, paginate } from '../../shared/paging.ts';
import type { Principal } from '../auth.ts';
import { fail, ok, readPageSize } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';
import {
  actorOf,
  bodyOf,
  checkStartDue,
  findTask,
  findTasklist,
  guarded,
  idTypeOf,
  isEmptyValue,
  presentTask,
  readCompletedAt,
  readCustomFields,
  readMembers,
  readTime,
  taskAuth,
  taskBad,
  TaskError,
} from '../task-common.ts';
import type { FakeTask, TaskMember } from '../task-state.ts';

const CLIENT_TOKEN_TTL_MS = 5 * 60_000;
const MAX_MEMBERS = 50;
const TASK_ROLES = ['assignee', 'follower'] as const;
const PATCHABLE = new Set([
  'summary',
  'description',
  'start',
  'due',
  'completed_at',
  'extra',
  'custom_complete',
  'repeat_rule',
  'mode',
  'is_milestone',
  'custom_fields',
]);

function text(raw: unknown, name: string, max: number, required = false): string {
  if (raw === undefined || raw === null) {
    if (required) throw new TaskError(taskBad(`${name} is required`));
    return '';
  }
  if (typeof raw !== 'string') throw new TaskError(taskBad(`${name} must be a string`));
  if (required && raw.trim() === '') throw new TaskError(taskBad(`${name} is required`));
  if ([...raw].length > max) throw new TaskError(taskBad(`${name} is longer than ${max} characters`));
  return raw;
}

function checkMemberCounts(members: TaskMember[]): void {
  if (members.filter((m) => m.role === 'assignee').length > MAX_MEMBERS)
    throw new TaskError(fail(400, 1470610, 'too many assignees'));
  if (members.filter((m) => m.role === 'follower').length > MAX_MEMBERS)
    throw new TaskError(fail(400, 1470611, 'too many followers'));
}

/** A remembered create for this caller and client_token, if still within 5 minutes. */
function remembered(ctx: LarkContext, key: string | null): FakeTask | undefined {
  if (!key) return undefined;
  const hit = ctx.tasks.clientTokens.get(key);
  if (!hit || hit.at + CLIENT_TOKEN_TTL_MS <= ctx.clock.now()) return undefined;
  return ctx.tasks.tasks.get(hit.guid);
}

function clientTokenKey(principal: Principal, raw: unknown, scope: string): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string' || raw.length < 10 || raw.length > 100)
    throw new TaskError(taskBad('client_token must be 10-100 characters'));
  return `${scope}|${actorOf(principal).id}|${raw}`;
}

function createTask(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const idType = idTypeOf(req);
  const body = bodyOf(req);
  const actor = actorOf(principal);
  const key = clientTokenKey(principal, body.client_token, 'task');
  const again = remembered(ctx, key);
  if (again) return ok({ task: presentTask(ctx, idType, again) });
  const summary = text(body.summary, 'summary', 3000, true);
  const description = text(body.description, 'description', 3000);
  const start = body.start === undefined ? undefined : readTime(body.start, 'start');
  const due = body.due === undefined ? undefined : readTime(body.due, 'due');
  checkStartDue(start, due);
  const members = readMembers(ctx, idType, body.members, TASK_ROLES, ['user', 'app']);
  checkMemberCounts(members);
  const rawLists = body.tasklists === undefined ? [] : body.tasklists;
  if (!Array.isArray(rawLists)) throw new TaskError(taskBad('tasklists must be a list'));
  const tasklists = rawLists.map((l) => {
    const guid = typeof l === 'object' && l !== null ? (l as Record<string, unknown>).tasklist_guid : undefined;
    if (typeof guid !== 'string') throw new TaskError(taskBad('tasklist_guid is required'));
    findTasklist(ctx, guid, actor, true);
    return {
      tasklist_guid: guid,
      section_guid: String((l as Record<string, unknown>).section_guid ?? '') || `${guid.slice(0, 8)}-default-section`,
    };
  });
  const reminders = Array.isArray(body.reminders) ? body.reminders : [];
  if (reminders.length > 1) throw new TaskError(taskBad('at most one reminder'));
  if (reminders.length && !due) throw new TaskError(taskBad('a reminder needs due'));
  if (typeof body.extra === 'string' && Buffer.byteLength(body.extra) > 64 * 1024)
    throw new TaskError(taskBad('extra is larger than 64 KB'));
  const custom = readCustomFields(
    ctx,
    idType,
    body.custom_fields,
    tasklists.map((l) => l.tasklist_guid),
  ).filter((v) => !isEmptyValue(v));
  const now = String(ctx.clock.now());
  const guid = ctx.tasks.newGuid();
  const task: FakeTask = {
    guid,
    task_id: ctx.tasks.newTaskId(),
    summary,
    description,
    start,
    due,
    completed_at: readCompletedAt(body.completed_at),
    created_at: now,
    updated_at: now,
    creator: actor,
    members,
    tasklists,
    custom_fields: custom,
    reminders: reminders.map((r) => ({
      id: String(ctx.tasks.newCommentId()),
      relative_fire_minute: Number((r as Record<string, unknown>).relative_fire_minute ?? 0),
    })),
    origin: body.origin,
    extra: typeof body.extra === 'string' ? body.extra : '',
    repeat_rule: typeof body.repeat_rule === 'string' ? body.repeat_rule : '',
    mode: body.mode === 1 ? 1 : 2,
    is_milestone: body.is_milestone === true,
    url: `${ctx.baseUrl()}/client/todo/detail?guid=${guid}`,
    deleted: false,
  };
  ctx.tasks.tasks.set(guid, task);
  if (key) ctx.tasks.clientTokens.set(key, { at: ctx.clock.now(), guid });
  return ok({ task: presentTask(ctx, idType, task) });
}

function getTask(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const task = findTask(ctx, req.params.task_guid ?? '', actorOf(principal), false);
  return ok({ task: presentTask(ctx, idTypeOf(req), task) });
}

/**
 * Applies `update_fields` to a task as `principal` (the PATCH route and the fake's "edit in Lark" hook): a
 * listed field absent from `task` is cleared; custom_fields changes only the guids given.
 */
export function patchTask(
  ctx: LarkContext,
  principal: Principal,
  idType: string,
  guid: string,
  change: Record<string, unknown>,
  updateFields: unknown,
): FakeTask {
  const task = findTask(ctx, guid, actorOf(principal), true);
  if (!Array.isArray(updateFields) || updateFields.length === 0)
    throw new TaskError(taskBad('update_fields is required'));
  for (const f of updateFields)
    if (typeof f !== 'string' || !PATCHABLE.has(f))
      throw new TaskError(taskBad(`update_fields: ${String(f)} cannot be updated here`));
  const has = (f: string) => updateFields.includes(f);
  const next = { ...task };
  if (has('summary')) next.summary = text(change.summary, 'summary', 3000, true);
  if (has('description')) next.description = text(change.description, 'description', 3000);
  if (has('start')) next.start = change.start === undefined ? undefined : readTime(change.start, 'start');
  if (has('due')) next.due = change.due === undefined ? undefined : readTime(change.due, 'due');
  checkStartDue(next.start, next.due);
  if (has('completed_at')) {
    const completed = readCompletedAt(change.completed_at);
    if (completed !== '0' && task.completed_at !== '0') throw new TaskError(taskBad('the task is already completed'));
    next.completed_at = completed;
  }
  if (has('extra')) next.extra = text(change.extra, 'extra', 64 * 1024);
  if (has('repeat_rule')) next.repeat_rule = text(change.repeat_rule, 'repeat_rule', 1000);
  if (has('mode')) next.mode = change.mode === 1 ? 1 : 2;
  if (has('is_milestone')) next.is_milestone = change.is_milestone === true;
  if (has('custom_fields')) {
    const given = readCustomFields(
      ctx,
      idType,
      change.custom_fields ?? [],
      task.tasklists.map((l) => l.tasklist_guid),
    );
    const kept = task.custom_fields.filter((v) => !given.some((g) => g.guid === v.guid));
    next.custom_fields = [...kept, ...given.filter((v) => !isEmptyValue(v))];
  }
  next.updated_at = String(Math.max(ctx.clock.now(), Number(task.updated_at) + 1));
  ctx.tasks.tasks.set(guid, next);
  return next;
}

function patchRoute(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const idType = idTypeOf(req);
  const body = bodyOf(req);
  const change = typeof body.task === 'object' && body.task !== null ? (body.task as Record<string, unknown>) : {};
  const task = patchTask(ctx, principal, idType, req.params.task_guid ?? '', change, body.update_fields);
  return ok({ task: presentTask(ctx, idType, task) });
}

function deleteTask(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const task = findTask(ctx, req.params.task_guid ?? '', actorOf(principal), true);
  task.deleted = true;
  return ok({});
}

/** GET /tasks — "my tasks": a user token only; tasks the user created or is a member of. */
function listMine(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req, ['user']);
  const idType = idTypeOf(req);
  const size = readPageSize(req.query.get('page_size'), 100, 50);
  if (size === null) return taskBad('page_size must be 1-100');
  const scope = `my_tasks|${actorOf(principal).id}`;
  const offset = decodePageToken(req.query.get('page_token'), scope);
  if (offset === null) return taskBad('invalid page_token');
  const completed = req.query.get('completed');
  const actor = actorOf(principal);
  const mine = [...ctx.tasks.tasks.values()]
    .filter((t) => !t.deleted && (t.creator.id === actor.id || t.members.some((m) => m.id === actor.id)))
    .filter((t) => completed === null || (completed === 'true') === (t.completed_at !== '0'))
    .map((t) => presentTask(ctx, idType, t));
  return ok(paginate(mine, offset, size, scope));
}

function changeMembers(ctx: LarkContext, req: FakeRequest, add: boolean): FakeResponse {
  const principal = taskAuth(ctx, req);
  const idType = idTypeOf(req);
  const body = bodyOf(req);
  const guid = req.params.task_guid ?? '';
  const key = add ? clientTokenKey(principal, body.client_token, `members|${guid}`) : null;
  const task = findTask(ctx, guid, actorOf(principal), true);
  const again = remembered(ctx, key);
  if (again) return ok({ task: presentTask(ctx, idType, again) });
  const given = readMembers(ctx, idType, body.members, TASK_ROLES, ['user', 'app']);
  if (!given.length) return taskBad('members is required');
  const same = (a: TaskMember, b: TaskMember) => a.id === b.id && a.role === b.role;
  const members = add
    ? [...task.members, ...given.filter((g) => !task.members.some((m) => same(m, g)))]
    : task.members.filter((m) => !given.some((g) => same(m, g)));
  checkMemberCounts(members);
  const next = { ...task, members, updated_at: String(Math.max(ctx.clock.now(), Number(task.updated_at) + 1)) };
  ctx.tasks.tasks.set(guid, next);
  if (key) ctx.tasks.clientTokens.set(key, { at: ctx.clock.now(), guid });
  return ok({ task: presentTask(ctx, idType, next) });
}

export function taskRoutes(ctx: LarkContext): RouteDef[] {
  const route = (name: string, method: string, path: string, run: (req: FakeRequest) => FakeResponse): RouteDef => ({
    name,
    method,
    path,
    handler: (req) => guarded(() => run(req)),
  });
  return [
    route('task.create', 'POST', '/open-apis/task/v2/tasks', (req) => createTask(ctx, req)),
    route('task.list', 'GET', '/open-apis/task/v2/tasks', (req) => listMine(ctx, req)),
    route('task.get', 'GET', '/open-apis/task/v2/tasks/:task_guid', (req) => getTask(ctx, req)),
    route('task.patch', 'PATCH', '/open-apis/task/v2/tasks/:task_guid', (req) => patchRoute(ctx, req)),
    route('task.delete', 'DELETE', '/open-apis/task/v2/tasks/:task_guid', (req) => deleteTask(ctx, req)),
    route('task.add_members', 'POST', '/open-apis/task/v2/tasks/:task_guid/add_members', (req) =>
      changeMembers(ctx, req, true),
    ),
    route('task.remove_members', 'POST', '/open-apis/task/v2/tasks/:task_guid/remove_members', (req) =>
      changeMembers(ctx, req, false),
    ),
  ];
}
