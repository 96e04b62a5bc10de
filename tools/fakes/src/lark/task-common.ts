import type { FakeRequest, FakeResponse } from '../shared/http-server.ts';
import { authenticate, isPrincipal, type Principal } from './auth.ts';
import { fail, isRecord } from './envelope.ts';
import type { LarkContext } from './lark-context.ts';
import type {
  CustomFieldValue,
  FakeCustomField,
  FakeTask,
  FakeTasklist,
  TaskActor,
  TaskMember,
  TaskTime,
} from './task-state.ts';

/** Contract §D errors: the code carries its HTTP status. */
export const taskBad = (msg: string): FakeResponse => fail(400, 1470400, msg);
export const taskForbidden = (msg = 'no permission'): FakeResponse => fail(403, 1470403, msg);
export const taskMissing = (msg = 'not found'): FakeResponse => fail(404, 1470404, msg);

export class TaskError extends Error {
  constructor(readonly response: FakeResponse) {
    super(String((response.body as { msg?: string }).msg));
  }
}

export function actorOf(principal: Principal): TaskActor {
  return principal.kind === 'tenant' ? { id: principal.appId, type: 'app' } : { id: principal.openId, type: 'user' };
}

export function taskAuth(
  ctx: LarkContext,
  req: FakeRequest,
  accept: ReadonlyArray<'tenant' | 'user'> = ['tenant', 'user'],
): Principal {
  const principal = authenticate(ctx, req, accept);
  if (!isPrincipal(principal)) throw new TaskError(principal);
  return principal;
}

export function bodyOf(req: FakeRequest): Record<string, unknown> {
  if (req.bodyError || !isRecord(req.body))
    throw new TaskError(taskBad(`invalid request body${req.bodyError ? `: ${req.bodyError}` : ''}`));
  return req.body;
}

/** Runs a handler that throws TaskError for its refusals. */
export async function guarded(run: () => FakeResponse | Promise<FakeResponse>): Promise<FakeResponse> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TaskError) return error.response;
    throw error;
  }
}

export function idTypeOf(req: FakeRequest): string {
  const type = req.query.get('user_id_type') ?? 'open_id';
  if (!['open_id', 'union_id', 'user_id'].includes(type)) throw new TaskError(taskBad('invalid user_id_type'));
  return type;
}

/** A user id in the caller's id type → open_id, or a 1470400. */
export function resolveUserId(ctx: LarkContext, idType: string, id: unknown): string {
  const user = typeof id === 'string' ? ctx.state.findUser(idType, id) : undefined;
  if (!user) throw new TaskError(taskBad(`invalid member id: ${String(id)}`));
  return user.openId;
}

export function presentUserId(ctx: LarkContext, idType: string, openId: string): string {
  const user = ctx.state.users.get(openId);
  if (!user || idType === 'open_id') return openId;
  return idType === 'union_id' ? user.unionId : user.userId;
}

export function presentActor(ctx: LarkContext, idType: string, actor: TaskActor): TaskActor {
  return actor.type === 'user' ? { id: presentUserId(ctx, idType, actor.id), type: 'user' } : actor;
}

export function presentMembers(
  ctx: LarkContext,
  idType: string,
  members: TaskMember[],
): Array<TaskMember & { name?: string }> {
  return members.map((m) => {
    if (m.type !== 'user') return m;
    return { id: presentUserId(ctx, idType, m.id), type: 'user', role: m.role, name: ctx.state.users.get(m.id)?.name };
  });
}

/** `members[]` of a request: `{id, type?, role}` with the allowed roles; ids turned into open_ids. */
export function readMembers(
  ctx: LarkContext,
  idType: string,
  raw: unknown,
  roles: readonly string[],
  types: readonly string[],
): TaskMember[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new TaskError(taskBad('members must be a list'));
  return raw.map((m) => {
    if (!isRecord(m)) throw new TaskError(taskBad('invalid member'));
    const type = typeof m.type === 'string' ? m.type : 'user';
    const role = typeof m.role === 'string' ? m.role : roles[roles.length - 1];
    if (!types.includes(type)) throw new TaskError(taskBad(`invalid member type: ${type}`));
    if (!role || !roles.includes(role)) throw new TaskError(taskBad(`invalid member role: ${String(m.role)}`));
    const id = type === 'user' ? resolveUserId(ctx, idType, m.id) : typeof m.id === 'string' && m.id ? m.id : null;
    if (!id) throw new TaskError(taskBad('member id is required'));
    return { id, type: type as TaskMember['type'], role };
  });
}

const DAY_MS = 86_400_000;

/** A `{timestamp, is_all_day}` object (timestamp a ms string); all-day times keep only the date part. */
export function readTime(raw: unknown, name: string): TaskTime {
  if (!isRecord(raw)) throw new TaskError(taskBad(`${name} must be an object`));
  const ts = raw.timestamp;
  if (typeof ts !== 'string' || !/^\d{1,16}$/.test(ts))
    throw new TaskError(taskBad(`${name}.timestamp must be a millisecond string`));
  const allDay = raw.is_all_day === true;
  const value = allDay ? Math.floor(Number(ts) / DAY_MS) * DAY_MS : Number(ts);
  return { timestamp: String(value), is_all_day: allDay };
}

export function checkStartDue(start: TaskTime | undefined, due: TaskTime | undefined): void {
  if (!start || !due) return;
  if (start.is_all_day !== due.is_all_day) throw new TaskError(taskBad('start and due must have the same is_all_day'));
  if (Number(start.timestamp) > Number(due.timestamp)) throw new TaskError(taskBad('start must not be later than due'));
}

export function readCompletedAt(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') return '0';
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw))
    throw new TaskError(taskBad('completed_at must be a millisecond string'));
  return raw;
}

/** Who may read or write a tasklist: its owner and members (viewers read only). */
export function tasklistRole(list: FakeTasklist, actor: TaskActor): 'owner' | 'editor' | 'viewer' | null {
  if (list.owner.id === actor.id) return 'owner';
  const member = list.members.find((m) => m.id === actor.id);
  return member ? (member.role as 'editor' | 'viewer') : null;
}

export function findTasklist(ctx: LarkContext, guid: string, actor: TaskActor, write: boolean): FakeTasklist {
  const list = ctx.tasks.tasklists.get(guid);
  if (!list || list.deleted) throw new TaskError(taskMissing('tasklist not found'));
  const role = tasklistRole(list, actor);
  if (!role || (write && role === 'viewer')) throw new TaskError(taskForbidden('no permission to this tasklist'));
  return list;
}

/** A task is open to its creator, its members and whoever may use one of its tasklists. */
export function canUseTask(ctx: LarkContext, task: FakeTask, actor: TaskActor, write: boolean): boolean {
  if (task.creator.id === actor.id || task.members.some((m) => m.id === actor.id)) return true;
  return task.tasklists.some((l) => {
    const list = ctx.tasks.tasklists.get(l.tasklist_guid);
    const role = list && !list.deleted ? tasklistRole(list, actor) : null;
    return role !== null && (!write || role !== 'viewer');
  });
}

export function findTask(ctx: LarkContext, guid: string, actor: TaskActor, write: boolean): FakeTask {
  const task = ctx.tasks.tasks.get(guid);
  if (!task || task.deleted) throw new TaskError(taskMissing('task not found'));
  if (!canUseTask(ctx, task, actor, write)) throw new TaskError(taskForbidden('no permission to this task'));
  return task;
}

/** Custom field values of a create or patch: only fields attached to one of the task's tasklists. */
export function readCustomFields(
  ctx: LarkContext,
  idType: string,
  raw: unknown,
  tasklistGuids: string[],
): CustomFieldValue[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new TaskError(taskBad('custom_fields must be a list'));
  return raw.map((value) => {
    if (!isRecord(value) || typeof value.guid !== 'string')
      throw new TaskError(taskBad('custom field guid is required'));
    const field = ctx.tasks.customFields.get(value.guid);
    if (!field?.tasklists.some((g) => tasklistGuids.includes(g)))
      throw new TaskError(taskBad(`custom field ${value.guid} is not attached to the task's tasklists`));
    return readFieldValue(ctx, idType, field, value);
  });
}

function readFieldValue(
  ctx: LarkContext,
  idType: string,
  field: FakeCustomField,
  value: Record<string, unknown>,
): CustomFieldValue {
  const bad = () => new TaskError(taskBad(`invalid value for custom field ${field.name}`));
  const optionOk = (g: unknown) => typeof g === 'string' && field.options.some((o) => o.guid === g);
  switch (field.type) {
    case 'single_select': {
      const v = value.single_select_value;
      if (v !== '' && !optionOk(v)) throw bad();
      return { guid: field.guid, single_select_value: v as string };
    }
    case 'multi_select': {
      const v = value.multi_select_value;
      if (!Array.isArray(v) || !v.every(optionOk)) throw bad();
      return { guid: field.guid, multi_select_value: v as string[] };
    }
    case 'number': {
      const v = value.number_value;
      if (typeof v !== 'string' || (v !== '' && !Number.isFinite(Number(v)))) throw bad();
      return { guid: field.guid, number_value: v };
    }
    case 'datetime': {
      const v = value.datetime_value;
      if (typeof v !== 'string' || (v !== '' && !/^\d{1,16}$/.test(v))) throw bad();
      return { guid: field.guid, datetime_value: v };
    }
    case 'text': {
      const v = value.text_value;
      if (typeof v !== 'string' || v.length > 3000) throw bad();
      return { guid: field.guid, text_value: v };
    }
    case 'member': {
      const v = value.member_value;
      if (!Array.isArray(v)) throw bad();
      return {
        guid: field.guid,
        member_value: v.map((m) => ({
          id: resolveUserId(ctx, idType, isRecord(m) ? m.id : null),
          type: 'user' as const,
        })),
      };
    }
  }
}

/** A value that clears the field ("" or []) is not kept. */
export function isEmptyValue(v: CustomFieldValue): boolean {
  const inner =
    v.single_select_value ??
    v.number_value ??
    v.datetime_value ??
    v.text_value ??
    v.multi_select_value ??
    v.member_value;
  return inner === undefined || inner === '' || (Array.isArray(inner) && inner.length === 0);
}

export function presentTask(ctx: LarkContext, idType: string, task: FakeTask): Record<string, unknown> {
  const fields = task.custom_fields.map((v) => {
    const field = ctx.tasks.customFields.get(v.guid);
    const member_value = v.member_value?.map((m) => ({ id: presentUserId(ctx, idType, m.id), type: 'user' }));
    return { ...v, ...(member_value ? { member_value } : {}), name: field?.name ?? '', type: field?.type ?? 'text' };
  });
  const assignees = task.members.filter((m) => m.role === 'assignee');
  return {
    guid: task.guid,
    task_id: task.task_id,
    summary: task.summary,
    description: task.description,
    status: task.completed_at === '0' ? 'todo' : 'done',
    url: task.url,
    ...(task.start ? { start: task.start } : {}),
    ...(task.due ? { due: task.due } : {}),
    completed_at: task.completed_at,
    created_at: task.created_at,
    updated_at: task.updated_at,
    creator: presentActor(ctx, idType, task.creator),
    members: presentMembers(ctx, idType, task.members),
    assignee_related: assignees.map((m) => ({ id: presentUserId(ctx, idType, m.id), completed_at: task.completed_at })),
    tasklists: task.tasklists,
    custom_fields: fields,
    attachments: [...ctx.tasks.attachments.values()]
      .filter((a) => !a.deleted && a.resource.id === task.guid)
      .map((a) => ({ guid: a.guid, file_token: a.file_token, name: a.name, size: a.size })),
    reminders: task.reminders,
    ...(task.origin ? { origin: task.origin } : {}),
    extra: task.extra,
    repeat_rule: task.repeat_rule,
    mode: task.mode,
    source: 6,
    parent_task_guid: '',
    subtask_count: 0,
    is_milestone: task.is_milestone,
    dependencies: [],
  };
}
