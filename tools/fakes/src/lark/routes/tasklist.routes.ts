import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { decodePageToken, paginate } from '../../shared/paging.ts';
import { isRecord, ok, readPageSize } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';
import {
  actorOf,
  bodyOf,
  findTasklist,
  guarded,
  idTypeOf,
  presentActor,
  presentMembers,
  readMembers,
  taskAuth,
  taskBad,
  TaskError,
  tasklistRole,
  taskForbidden,
  taskMissing,
} from '../task-common.ts';
import type { CustomFieldOption, CustomFieldType, FakeCustomField, FakeTasklist } from '../task-state.ts';

const FIELD_TYPES: readonly CustomFieldType[] = [
  'number',
  'datetime',
  'member',
  'single_select',
  'multi_select',
  'text',
];

function present(ctx: LarkContext, idType: string, list: FakeTasklist): Record<string, unknown> {
  return {
    guid: list.guid,
    name: list.name,
    creator: presentActor(ctx, idType, list.creator),
    owner: { ...presentActor(ctx, idType, list.owner), role: 'owner' },
    members: presentMembers(ctx, idType, list.members),
    url: list.url,
    created_at: list.created_at,
    updated_at: list.updated_at,
  };
}

function pageOf(req: FakeRequest, scope: string, fallback: number): { size: number; offset: number } {
  const size = readPageSize(req.query.get('page_size'), 100, fallback);
  if (size === null) throw new TaskError(taskBad('page_size must be 1-100'));
  const offset = decodePageToken(req.query.get('page_token'), scope);
  if (offset === null) throw new TaskError(taskBad('invalid page_token'));
  return { size, offset };
}

function listName(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new TaskError(taskBad('name is required'));
  if ([...raw].length > 100) throw new TaskError(taskBad('name is longer than 100 characters'));
  return raw;
}

function create(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const idType = idTypeOf(req);
  const body = bodyOf(req);
  const actor = actorOf(principal);
  const members = readMembers(ctx, idType, body.members, ['editor', 'viewer'], ['user', 'chat', 'app']).filter(
    (m) => m.id !== actor.id,
  );
  const now = String(ctx.clock.now());
  const guid = ctx.tasks.newGuid();
  const list: FakeTasklist = {
    guid,
    name: listName(body.name),
    creator: actor,
    owner: actor,
    members,
    url: `${ctx.baseUrl()}/client/todo/task_list?guid=${guid}`,
    created_at: now,
    updated_at: now,
    deleted: false,
  };
  ctx.tasks.tasklists.set(guid, list);
  return ok({ tasklist: present(ctx, idType, list) });
}

function get(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const list = findTasklist(ctx, req.params.tasklist_guid ?? '', actorOf(principal), false);
  return ok({ tasklist: present(ctx, idTypeOf(req), list) });
}

function list(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const actor = actorOf(principal);
  const scope = `tasklists|${actor.id}`;
  const page = pageOf(req, scope, 50);
  const mine = [...ctx.tasks.tasklists.values()]
    .filter((l) => !l.deleted && tasklistRole(l, actor))
    .map((l) => present(ctx, idTypeOf(req), l));
  return ok(paginate(mine, page.offset, page.size, scope));
}

function patch(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const body = bodyOf(req);
  const target = findTasklist(ctx, req.params.tasklist_guid ?? '', actorOf(principal), true);
  const fields = body.update_fields;
  if (!Array.isArray(fields) || !fields.length || fields.some((f) => f !== 'name' && f !== 'owner'))
    throw new TaskError(taskBad('update_fields must name name or owner'));
  const change = isRecord(body.tasklist) ? body.tasklist : {};
  if (fields.includes('name')) target.name = listName(change.name);
  target.updated_at = String(ctx.clock.now());
  return ok({ tasklist: present(ctx, idTypeOf(req), target) });
}

function remove(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const target = findTasklist(ctx, req.params.tasklist_guid ?? '', actorOf(principal), true);
  if (target.owner.id !== actorOf(principal).id) throw new TaskError(taskBad('only the owner may delete a tasklist'));
  target.deleted = true;
  return ok({});
}

/** GET /tasklists/:guid/tasks (tenant token OK): summaries, filtered by completion and creation time. */
function tasks(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const idType = idTypeOf(req);
  const target = findTasklist(ctx, req.params.tasklist_guid ?? '', actorOf(principal), false);
  const scope = `tasklist_tasks|${target.guid}`;
  const page = pageOf(req, scope, 50);
  const completed = req.query.get('completed');
  const from = Number(req.query.get('created_from') ?? 0);
  const to = Number(req.query.get('created_to') ?? Number.MAX_SAFE_INTEGER);
  const items = ctx.tasks
    .tasksOf(target.guid)
    .filter((t) => completed === null || (completed === 'true') === (t.completed_at !== '0'))
    .filter((t) => Number(t.created_at) >= from && Number(t.created_at) <= to)
    .map((t) => ({
      guid: t.guid,
      summary: t.summary,
      completed_at: t.completed_at,
      ...(t.start ? { start: t.start } : {}),
      ...(t.due ? { due: t.due } : {}),
      members: presentMembers(ctx, idType, t.members),
      subtask_count: 0,
    }));
  return ok(paginate(items, page.offset, page.size, scope));
}

function readOptions(raw: unknown, ctx: LarkContext): CustomFieldOption[] {
  const options = isRecord(raw) && Array.isArray(raw.options) ? raw.options : [];
  return options.map((o) => {
    if (!isRecord(o) || typeof o.name !== 'string' || !o.name) throw new TaskError(taskBad('option name is required'));
    const color = o.color_index === undefined ? 0 : Number(o.color_index);
    if (!Number.isInteger(color) || color < 0 || color > 54) throw new TaskError(taskBad('color_index must be 0-54'));
    return { guid: ctx.tasks.newGuid(), name: o.name, color_index: color, is_hidden: o.is_hidden === true };
  });
}

export function presentField(ctx: LarkContext, idType: string, field: FakeCustomField): Record<string, unknown> {
  const setting =
    field.type === 'single_select' || field.type === 'multi_select' ? { options: field.options } : field.settings;
  return {
    guid: field.guid,
    name: field.name,
    type: field.type,
    [`${field.type}_setting`]: setting,
    creator: presentActor(ctx, idType, field.creator),
    created_at: field.created_at,
    updated_at: field.updated_at,
  };
}

function createField(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const idType = idTypeOf(req);
  const body = bodyOf(req);
  if (body.resource_type !== 'tasklist' || typeof body.resource_id !== 'string')
    throw new TaskError(taskBad('resource_type must be tasklist with a resource_id'));
  findTasklist(ctx, body.resource_id, actorOf(principal), true);
  if (typeof body.name !== 'string' || !body.name || [...body.name].length > 50)
    throw new TaskError(taskBad('name is required (at most 50 characters)'));
  const type = body.type as CustomFieldType;
  if (!FIELD_TYPES.includes(type)) throw new TaskError(taskBad('invalid custom field type'));
  const setting = body[`${type}_setting`];
  const selecting = type === 'single_select' || type === 'multi_select';
  const now = String(ctx.clock.now());
  const field: FakeCustomField = {
    guid: ctx.tasks.newGuid(),
    name: body.name,
    type,
    tasklists: [body.resource_id],
    settings: isRecord(setting) && !selecting ? setting : {},
    options: selecting ? readOptions(setting, ctx) : [],
    creator: actorOf(principal),
    created_at: now,
    updated_at: now,
  };
  ctx.tasks.customFields.set(field.guid, field);
  return ok({ custom_field: presentField(ctx, idType, field) });
}

function findField(ctx: LarkContext, req: FakeRequest, write: boolean): FakeCustomField {
  const principal = taskAuth(ctx, req);
  const field = ctx.tasks.customFields.get(req.params.guid ?? '');
  if (!field) throw new TaskError(taskMissing('custom field not found'));
  const actor = actorOf(principal);
  const allowed = field.tasklists.some((g) => {
    const l = ctx.tasks.tasklists.get(g);
    const role = l && !l.deleted ? tasklistRole(l, actor) : null;
    return role && (!write || role !== 'viewer');
  });
  if (!allowed) throw new TaskError(taskForbidden('no permission to this custom field'));
  return field;
}

function listFields(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const resource = req.query.get('resource_id');
  if (req.query.get('resource_type') !== 'tasklist' || !resource)
    throw new TaskError(taskBad('resource_type=tasklist and resource_id are required'));
  findTasklist(ctx, resource, actorOf(principal), false);
  const scope = `custom_fields|${resource}`;
  const page = pageOf(req, scope, 50);
  const fields = [...ctx.tasks.customFields.values()]
    .filter((f) => f.tasklists.includes(resource))
    .map((f) => presentField(ctx, idTypeOf(req), f));
  return ok(paginate(fields, page.offset, page.size, scope));
}

/** POST /custom_fields/:guid/options — adds one option; answers the option with its guid. */
function addOption(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const field = findField(ctx, req, true);
  if (field.type !== 'single_select' && field.type !== 'multi_select')
    throw new TaskError(taskBad('only select fields have options'));
  const [option] = readOptions({ options: [bodyOf(req)] }, ctx);
  if (!option) throw new TaskError(taskBad('option is required'));
  field.options.push(option);
  field.updated_at = String(ctx.clock.now());
  return ok({ option });
}

/** PATCH /custom_fields/:guid — `name` (and select options by guid: renamed, hidden; new ones without a guid). */
function patchField(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const field = findField(ctx, req, true);
  const body = bodyOf(req);
  const fields = body.update_fields;
  const change = isRecord(body.custom_field) ? body.custom_field : {};
  if (!Array.isArray(fields) || !fields.length) throw new TaskError(taskBad('update_fields is required'));
  for (const name of fields) {
    if (name === 'name') {
      if (typeof change.name !== 'string' || !change.name || [...change.name].length > 50)
        throw new TaskError(taskBad('name is required (at most 50 characters)'));
      field.name = change.name;
    } else if (name === `${field.type}_setting` && (field.type === 'single_select' || field.type === 'multi_select')) {
      const raw =
        isRecord(change[name]) && Array.isArray((change[name] as Record<string, unknown>).options)
          ? ((change[name] as Record<string, unknown>).options as unknown[])
          : [];
      const fresh = readOptions({ options: raw.filter((o) => !(isRecord(o) && typeof o.guid === 'string')) }, ctx);
      for (const o of raw) {
        if (!isRecord(o) || typeof o.guid !== 'string') continue;
        const known = field.options.find((x) => x.guid === o.guid);
        if (!known) throw new TaskError(taskBad(`unknown option ${o.guid}`));
        if (typeof o.name === 'string' && o.name) known.name = o.name;
        if (typeof o.is_hidden === 'boolean') known.is_hidden = o.is_hidden;
      }
      field.options.push(...fresh);
    } else throw new TaskError(taskBad(`update_fields: ${String(name)} cannot be updated`));
  }
  field.updated_at = String(ctx.clock.now());
  return ok({ custom_field: presentField(ctx, idTypeOf(req), field) });
}

/** POST /custom_fields/:guid/add and /remove — attaches the field to (or detaches it from) another tasklist. */
function attachField(ctx: LarkContext, req: FakeRequest, add: boolean): FakeResponse {
  const field = findField(ctx, req, true);
  const body = bodyOf(req);
  if (body.resource_type !== 'tasklist' || typeof body.resource_id !== 'string')
    throw new TaskError(taskBad('resource_type must be tasklist with a resource_id'));
  findTasklist(ctx, body.resource_id, actorOf(taskAuth(ctx, req)), true);
  const others = field.tasklists.filter((g) => g !== body.resource_id);
  field.tasklists = add ? [...others, body.resource_id] : others;
  return ok({});
}

export function tasklistRoutes(ctx: LarkContext): RouteDef[] {
  const route = (name: string, method: string, path: string, run: (req: FakeRequest) => FakeResponse): RouteDef => ({
    name,
    method,
    path,
    handler: (req) => guarded(() => run(req)),
  });
  const base = '/open-apis/task/v2';
  return [
    route('task.tasklist.create', 'POST', `${base}/tasklists`, (req) => create(ctx, req)),
    route('task.tasklist.list', 'GET', `${base}/tasklists`, (req) => list(ctx, req)),
    route('task.tasklist.get', 'GET', `${base}/tasklists/:tasklist_guid`, (req) => get(ctx, req)),
    route('task.tasklist.patch', 'PATCH', `${base}/tasklists/:tasklist_guid`, (req) => patch(ctx, req)),
    route('task.tasklist.delete', 'DELETE', `${base}/tasklists/:tasklist_guid`, (req) => remove(ctx, req)),
    route('task.tasklist.tasks', 'GET', `${base}/tasklists/:tasklist_guid/tasks`, (req) => tasks(ctx, req)),
    route('task.custom_field.create', 'POST', `${base}/custom_fields`, (req) => createField(ctx, req)),
    route('task.custom_field.list', 'GET', `${base}/custom_fields`, (req) => listFields(ctx, req)),
    route('task.custom_field.get', 'GET', `${base}/custom_fields/:guid`, (req) =>
      ok({ custom_field: presentField(ctx, idTypeOf(req), findField(ctx, req, false)) }),
    ),
    route('task.custom_field.patch', 'PATCH', `${base}/custom_fields/:guid`, (req) => patchField(ctx, req)),
    route('task.custom_field.add', 'POST', `${base}/custom_fields/:guid/add`, (req) => attachField(ctx, req, true)),
    route('task.custom_field.remove', 'POST', `${base}/custom_fields/:guid/remove`, (req) =>
      attachField(ctx, req, false),
    ),
    route('task.custom_field.option.create', 'POST', `${base}/custom_fields/:guid/options`, (req) =>
      addOption(ctx, req),
    ),
  ];
}
