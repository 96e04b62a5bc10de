import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { decodePageToken, paginate } from '../../shared/paging.ts';
import { authenticate, isPrincipal, type Principal } from '../auth.ts';
import { BitableError, bitableFail } from '../bitable-cells.ts';
import { UI_TYPES, type BitableApp, type BitableField, type BitableTable } from '../bitable-state.ts';
import { isRecord, ok } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';
import { buildDriveFile } from '../lark-seed.ts';

const PRIMARY_TYPES = new Set([1, 2, 5, 13, 15, 20, 22]);
const MAX_TABLES = 100;

export function principalId(principal: Principal): string {
  return principal.kind === 'tenant' ? principal.appId : principal.openId;
}

export function bitableAuth(ctx: LarkContext, req: FakeRequest): Principal {
  const principal = authenticate(ctx, req, ['tenant', 'user']);
  if (!isPrincipal(principal)) throw new BitableError(principal);
  return principal;
}

export function bitableBody(req: FakeRequest): Record<string, unknown> {
  if (req.bodyError) throw bitableFail(1254000, `invalid JSON: ${req.bodyError}`);
  if (!isRecord(req.body)) throw bitableFail(1254001, 'request body must be an object');
  return req.body;
}

/** The base, open only to its collaborators (a tenant token works once the app was added: 1254701 / HTTP 403). */
export function findApp(ctx: LarkContext, req: FakeRequest, principal: Principal): BitableApp {
  const token = req.params.app_token ?? '';
  if (!/^[A-Za-z0-9]{27}$/.test(token)) throw bitableFail(1254003, 'invalid app_token');
  const app = ctx.bitable.apps.get(token);
  if (!app) throw bitableFail(1254040, 'base not found');
  if (!app.collaborators.has(principalId(principal)))
    throw bitableFail(1254701, 'no permission: add the app to the base as a collaborator', 403);
  return app;
}

export function findTable(
  ctx: LarkContext,
  req: FakeRequest,
  principal: Principal,
): { app: BitableApp; table: BitableTable } {
  const app = findApp(ctx, req, principal);
  const id = req.params.table_id ?? '';
  if (!/^tbl\w+$/.test(id)) throw bitableFail(1254004, 'invalid table_id');
  const table = app.tables.find((t) => t.table_id === id);
  if (!table) throw bitableFail(1254041, 'table not found');
  return { app, table };
}

/** page_size (≤ max; ≤ 0 is 1254011 with HTTP 400) and an opaque page_token (1254002 when not ours). */
export function bitablePage(req: FakeRequest, scope: string, max: number): { size: number; offset: number } {
  const raw = req.query.get('page_size');
  const size = raw === null || raw === '' ? 20 : Number(raw);
  if (!Number.isInteger(size) || size <= 0) throw bitableFail(1254011, 'page_size must be greater than 0', 400);
  if (size > max) throw bitableFail(1254800, `page_size must be at most ${max}`, 400);
  const offset = decodePageToken(req.query.get('page_token'), scope);
  if (offset === null) throw bitableFail(1254002, 'invalid page_token');
  return { size, offset };
}

export function guardedBitable(run: () => FakeResponse): () => FakeResponse {
  return () => {
    try {
      return run();
    } catch (error) {
      if (error instanceof BitableError) return error.response;
      throw error;
    }
  };
}

/** A field from a request: name, type code, property (select options get `opt…` ids). */
export function buildField(ctx: LarkContext, raw: unknown, primary: boolean): BitableField {
  if (!isRecord(raw) || typeof raw.field_name !== 'string' || !raw.field_name.trim())
    throw bitableFail(1254001, 'field_name is required');
  const type = Number(raw.type);
  if (!UI_TYPES[type]) throw bitableFail(1254001, `unknown field type ${String(raw.type)}`);
  if (primary && !PRIMARY_TYPES.has(type)) throw bitableFail(1254001, `a primary field cannot be of type ${type}`);
  const property = isRecord(raw.property) ? { ...raw.property } : null;
  if (property && Array.isArray(property.options)) {
    property.options = property.options.map((o, i) => {
      if (!isRecord(o) || typeof o.name !== 'string' || !o.name) throw bitableFail(1254001, 'option name is required');
      return {
        id: typeof o.id === 'string' && o.id ? o.id : ctx.bitable.newOptionId(),
        name: o.name,
        color: typeof o.color === 'number' ? o.color : i % 55,
      };
    });
  } else if (type === 3 || type === 4) {
    return {
      field_id: ctx.bitable.newFieldId(),
      field_name: raw.field_name,
      type,
      ui_type: UI_TYPES[type] ?? '',
      is_primary: primary,
      is_hidden: false,
      description: '',
      property: { options: [] },
    };
  }
  return {
    field_id: ctx.bitable.newFieldId(),
    field_name: raw.field_name,
    type,
    ui_type: typeof raw.ui_type === 'string' ? raw.ui_type : (UI_TYPES[type] ?? ''),
    is_primary: primary,
    is_hidden: false,
    description: typeof raw.description === 'string' ? raw.description : '',
    property,
  };
}

export function newTable(ctx: LarkContext, name: string, fields: BitableField[]): BitableTable {
  return {
    table_id: ctx.bitable.newTableId(),
    name,
    revision: 1,
    default_view_id: ctx.bitable.newViewId(),
    fields,
    records: [],
  };
}

function createApp(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = bitableAuth(ctx, req);
  const body = bitableBody(req);
  const name = body.name === undefined ? '' : body.name;
  if (typeof name !== 'string' || [...name].length > 255)
    throw bitableFail(1254800, 'name must be at most 255 characters', 400);
  const folder = typeof body.folder_token === 'string' ? body.folder_token : '';
  if (folder && ctx.state.driveFiles.get(folder)?.type !== 'folder')
    throw bitableFail(1254702, 'folder not found', 404);
  const token = ctx.bitable.newAppToken();
  const table = newTable(ctx, '数据表', [buildField(ctx, { field_name: '多行文本', type: 1 }, true)]);
  const app: BitableApp = {
    app_token: token,
    name,
    folder_token: folder,
    url: `${ctx.baseUrl()}/base/${token}`,
    time_zone: typeof body.time_zone === 'string' ? body.time_zone : 'Asia/Shanghai',
    collaborators: new Set([principalId(principal)]),
    tables: [table],
  };
  ctx.bitable.apps.set(token, app);
  // A base is a drive file too: the app that made it may subscribe to its change events (contract §F).
  ctx.state.driveFiles.set(
    token,
    buildDriveFile({ token, type: 'bitable', appCanManage: principal.kind === 'tenant' }),
  );
  return ok({
    app: {
      app_token: token,
      name,
      folder_token: folder,
      url: app.url,
      default_table_id: table.table_id,
      time_zone: app.time_zone,
    },
  });
}

function createTable(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = bitableAuth(ctx, req);
  const app = findApp(ctx, req, principal);
  const body = bitableBody(req);
  const spec = isRecord(body.table) ? body.table : null;
  if (!spec || typeof spec.name !== 'string' || !spec.name.trim()) throw bitableFail(1254001, 'table.name is required');
  if (app.tables.some((t) => t.name === spec.name)) throw bitableFail(1254001, 'a table with this name exists');
  if (app.tables.length >= MAX_TABLES) throw bitableFail(1254100, 'a base holds at most 100 tables');
  const rawFields =
    Array.isArray(spec.fields) && spec.fields.length ? spec.fields : [{ field_name: '多行文本', type: 1 }];
  const fields = rawFields.map((f, i) => buildField(ctx, f, i === 0));
  if (new Set(fields.map((f) => f.field_name)).size !== fields.length)
    throw bitableFail(1254001, 'field names must be unique');
  const table = newTable(ctx, spec.name, fields);
  app.tables.push(table);
  return ok({
    table_id: table.table_id,
    default_view_id: table.default_view_id,
    field_id_list: fields.map((f) => f.field_id),
  });
}

function listTables(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = bitableAuth(ctx, req);
  const app = findApp(ctx, req, principal);
  const scope = `tables|${app.app_token}`;
  const page = bitablePage(req, scope, 100);
  const items = app.tables.map((t) => ({ table_id: t.table_id, revision: t.revision, name: t.name }));
  return ok({ ...paginate(items, page.offset, page.size, scope), total: items.length });
}

function presentField(field: BitableField): BitableField {
  return structuredClone(field);
}

function listFields(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = bitableAuth(ctx, req);
  const { table } = findTable(ctx, req, principal);
  const scope = `fields|${table.table_id}`;
  const page = bitablePage(req, scope, 100);
  const items = table.fields.map(presentField);
  return ok({ ...paginate(items, page.offset, page.size, scope), total: items.length });
}

function createField(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = bitableAuth(ctx, req);
  const { table } = findTable(ctx, req, principal);
  const field = buildField(ctx, bitableBody(req), false);
  if (table.fields.some((f) => f.field_name === field.field_name))
    throw bitableFail(1254001, 'a field with this name exists');
  table.fields.push(field);
  table.revision += 1;
  return ok({ field: presentField(field) });
}

function findField(table: BitableTable, req: FakeRequest): BitableField {
  const id = req.params.field_id ?? '';
  if (!/^fld\w+$/.test(id)) throw bitableFail(1254009, 'invalid field_id');
  const field = table.fields.find((f) => f.field_id === id);
  if (!field) throw bitableFail(1254044, 'field not found');
  return field;
}

/** PUT …/fields/:field_id — name, type and property; select options without an id are new. */
function updateField(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = bitableAuth(ctx, req);
  const { table } = findTable(ctx, req, principal);
  const field = findField(table, req);
  const next = buildField(ctx, bitableBody(req), field.is_primary);
  if (table.fields.some((f) => f !== field && f.field_name === next.field_name))
    throw bitableFail(1254001, 'a field with this name exists');
  Object.assign(field, {
    field_name: next.field_name,
    type: next.type,
    ui_type: next.ui_type,
    property: next.property,
    description: next.description || field.description,
  });
  table.revision += 1;
  return ok({ field: presentField(field) });
}

function deleteField(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = bitableAuth(ctx, req);
  const { table } = findTable(ctx, req, principal);
  const field = findField(table, req);
  if (field.is_primary) throw bitableFail(1254001, 'the primary field cannot be deleted');
  table.fields = table.fields.filter((f) => f !== field);
  for (const r of table.records) r.cells.delete(field.field_id);
  table.revision += 1;
  return ok({ field_id: field.field_id, deleted: true });
}

export function bitableRoutes(ctx: LarkContext): RouteDef[] {
  const route = (name: string, method: string, path: string, run: (req: FakeRequest) => FakeResponse): RouteDef => ({
    name,
    method,
    path,
    handler: (req) => guardedBitable(() => run(req))(),
  });
  const base = '/open-apis/bitable/v1/apps';
  return [
    route('bitable.app.create', 'POST', base, (req) => createApp(ctx, req)),
    route('bitable.app.get', 'GET', `${base}/:app_token`, (req) => {
      const app = findApp(ctx, req, bitableAuth(ctx, req));
      return ok({
        app: {
          app_token: app.app_token,
          name: app.name,
          revision: app.tables.reduce((n, t) => n + t.revision, 0),
          is_advanced: false,
          time_zone: app.time_zone,
        },
      });
    }),
    route('bitable.table.create', 'POST', `${base}/:app_token/tables`, (req) => createTable(ctx, req)),
    route('bitable.table.list', 'GET', `${base}/:app_token/tables`, (req) => listTables(ctx, req)),
    route('bitable.field.list', 'GET', `${base}/:app_token/tables/:table_id/fields`, (req) => listFields(ctx, req)),
    route('bitable.field.create', 'POST', `${base}/:app_token/tables/:table_id/fields`, (req) => createField(ctx, req)),
    route('bitable.field.update', 'PUT', `${base}/:app_token/tables/:table_id/fields/:field_id`, (req) =>
      updateField(ctx, req),
    ),
    route('bitable.field.delete', 'DELETE', `${base}/:app_token/tables/:table_id/fields/:field_id`, (req) =>
      deleteField(ctx, req),
    ),
  ];
}
