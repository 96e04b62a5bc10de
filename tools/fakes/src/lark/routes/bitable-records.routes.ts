import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { paginate } from '../../shared/paging.ts';
import type { Principal } from '../auth.ts';
import { bitableFail, cellText, presentRecord, writeCell } from '../bitable-cells.ts';
import type { BitableRecord, BitableTable } from '../bitable-state.ts';
import { isRecord, ok } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';
import { bitableAuth, bitableBody, bitablePage, findTable, guardedBitable, principalId } from './bitable.routes.ts';

const MAX_BATCH = 1000;
const MAX_RECORDS = 20_000;
const OPERATORS = new Set([
  'is',
  'isNot',
  'contains',
  'doesNotContain',
  'isEmpty',
  'isNotEmpty',
  'isGreater',
  'isGreaterEqual',
  'isLess',
  'isLessEqual',
]);

function idTypeOf(req: FakeRequest): string {
  const type = req.query.get('user_id_type') ?? 'open_id';
  if (!['open_id', 'union_id', 'user_id'].includes(type)) throw bitableFail(1254800, 'invalid user_id_type', 400);
  return type;
}

/**
 * Writes cells (keyed by field name) to a record as `principal`: all checked first, then applied; the routes and
 * the fake's "edit in Lark" hook share it. A new select name creates its option.
 */
export function writeFields(
  ctx: LarkContext,
  table: BitableTable,
  record: BitableRecord,
  raw: unknown,
  principal: Principal,
  idType: string,
): void {
  if (!isRecord(raw)) throw bitableFail(1254001, 'fields must be an object');
  const changes = Object.entries(raw).map(([name, value]) => {
    const field = table.fields.find((f) => f.field_name === name);
    if (!field) throw bitableFail(1254044, `field not found: ${name}`);
    return [field.field_id, writeCell(ctx, table, field, value, idType)] as const;
  });
  for (const [id, value] of changes) value === null ? record.cells.delete(id) : record.cells.set(id, value);
  const now = Math.max(ctx.clock.now(), record.last_modified_time + 1);
  record.last_modified_time = now;
  record.last_modified_by = principalId(principal);
  table.revision += 1;
}

export function addRecord(
  ctx: LarkContext,
  table: BitableTable,
  fields: unknown,
  principal: Principal,
  idType: string,
): BitableRecord {
  if (table.records.length >= MAX_RECORDS) throw bitableFail(1254103, 'a table holds at most 20,000 records');
  const now = ctx.clock.now();
  const record: BitableRecord = {
    record_id: ctx.bitable.newRecordId(),
    cells: new Map(),
    created_by: principalId(principal),
    created_time: now,
    last_modified_by: principalId(principal),
    last_modified_time: now - 1,
  };
  writeFields(ctx, table, record, fields ?? {}, principal, idType);
  table.records.push(record);
  return record;
}

export function findRecord(table: BitableTable, id: unknown): BitableRecord {
  if (typeof id !== 'string' || !/^rec\w+$/.test(id)) throw bitableFail(1254006, `invalid record_id: ${String(id)}`);
  const record = table.records.find((r) => r.record_id === id);
  if (!record) throw bitableFail(1254043, `record not found: ${id}`);
  return record;
}

function batchOf(body: Record<string, unknown>): unknown[] {
  if (!Array.isArray(body.records) || body.records.length === 0) throw bitableFail(1254001, 'records is required');
  if (body.records.length > MAX_BATCH) throw bitableFail(1254104, `at most ${MAX_BATCH} records per batch`);
  return body.records;
}

/** A write with `client_token`: the same token and body answer what the first call did; another body is 1255006. */
function idempotent(ctx: LarkContext, req: FakeRequest, run: () => unknown): FakeResponse {
  const token = req.query.get('client_token');
  if (!token) return ok(run());
  const key = `${req.route}|${req.path}|${token}`;
  const request = JSON.stringify(req.body ?? null);
  const seen = ctx.bitable.clientTokens.get(key);
  if (seen)
    return seen.request === request
      ? ok(seen.data)
      : { status: 400, body: { code: 1255006, msg: 'client_token conflict' } };
  const data = run();
  ctx.bitable.clientTokens.set(key, { request, data });
  return ok(data);
}

function matches(ctx: LarkContext, table: BitableTable, record: BitableRecord, condition: unknown): boolean {
  if (
    !isRecord(condition) ||
    typeof condition.field_name !== 'string' ||
    typeof condition.operator !== 'string' ||
    !OPERATORS.has(condition.operator)
  )
    throw bitableFail(1254018, 'invalid filter condition');
  const field = table.fields.find((f) => f.field_name === condition.field_name);
  if (!field) throw bitableFail(1254018, `filter: field not found: ${String(condition.field_name)}`);
  const values = condition.value === undefined ? [] : condition.value;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string'))
    throw bitableFail(1254018, 'filter value must be a list of strings');
  const text = cellText(ctx, table, field, record);
  const want = (values[0] as string | undefined) ?? '';
  const numeric = [2, 5, 1001, 1002].includes(field.type);
  const cmp = numeric ? Number(text || Number.NaN) - Number(want) : text.localeCompare(want);
  switch (condition.operator) {
    case 'is':
      return field.type === 4 ? text.split(',').includes(want) : text === want;
    case 'isNot':
      return text !== want;
    case 'contains':
      return values.some((v) => text.includes(v as string));
    case 'doesNotContain':
      return !values.some((v) => text.includes(v as string));
    case 'isEmpty':
      return text === '';
    case 'isNotEmpty':
      return text !== '';
    case 'isGreater':
      return text !== '' && cmp > 0;
    case 'isGreaterEqual':
      return text !== '' && cmp >= 0;
    case 'isLess':
      return text !== '' && cmp < 0;
    default:
      return text !== '' && cmp <= 0;
  }
}

function search(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = bitableAuth(ctx, req);
  const idType = idTypeOf(req);
  const { table } = findTable(ctx, req, principal);
  const body = req.rawBody.length ? bitableBody(req) : {};
  const page = bitablePage(req, `search|${table.table_id}|${JSON.stringify(body)}`, 500);
  let rows = [...table.records];
  if (body.filter !== undefined && body.filter !== null) {
    const filter = body.filter;
    if (
      !isRecord(filter) ||
      !Array.isArray(filter.conditions) ||
      (filter.conjunction !== undefined && filter.conjunction !== 'and' && filter.conjunction !== 'or')
    )
      throw bitableFail(1254018, 'invalid filter');
    const any = filter.conjunction === 'or';
    const conditions = filter.conditions;
    rows = rows.filter((r) =>
      conditions.length === 0
        ? true
        : any
          ? conditions.some((c) => matches(ctx, table, r, c))
          : conditions.every((c) => matches(ctx, table, r, c)),
    );
  }
  if (body.sort !== undefined) {
    if (!Array.isArray(body.sort)) throw bitableFail(1254016, 'invalid sort');
    for (const s of [...body.sort].reverse()) {
      const field = isRecord(s) ? table.fields.find((f) => f.field_name === s.field_name) : undefined;
      if (!field || !isRecord(s)) throw bitableFail(1254016, 'invalid sort');
      const numeric = [2, 5, 1001, 1002].includes(field.type);
      rows.sort((a, b) => {
        const x = cellText(ctx, table, field, a);
        const y = cellText(ctx, table, field, b);
        const order = numeric ? Number(x || 0) - Number(y || 0) : x.localeCompare(y);
        return s.desc === true ? -order : order;
      });
    }
  }
  const names = body.field_names;
  if (
    names !== undefined &&
    (!Array.isArray(names) ||
      !names.every((n) => typeof n === 'string' && table.fields.some((f) => f.field_name === n)))
  )
    throw bitableFail(1254024, 'invalid field_names');
  const items = rows.map((r) => {
    const { id: _id, ...item } = presentRecord(ctx, table, r, idType, {
      fieldNames: names as string[] | undefined,
      automatic: body.automatic_fields === true,
    });
    return { ...item, record_url: `${ctx.baseUrl()}/record/${r.record_id}` };
  });
  return ok({
    ...paginate(items, page.offset, page.size, `search|${table.table_id}|${JSON.stringify(body)}`),
    total: items.length,
  });
}

/** GET …/records — the legacy list; `filter` formulas other than `CurrentValue.[X]="v"` (joined by AND) give 1254018. */
function legacyList(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = bitableAuth(ctx, req);
  const idType = idTypeOf(req);
  const { table } = findTable(ctx, req, principal);
  const scope = `list|${table.table_id}|${req.query.get('filter') ?? ''}`;
  const page = bitablePage(req, scope, 500);
  let rows = [...table.records];
  const formula = req.query.get('filter');
  if (formula) {
    const parts = /^AND\((.*)\)$/.exec(formula)?.[1]?.split(/,\s*(?=CurrentValue)/) ?? [formula];
    for (const part of parts) {
      const m = /^CurrentValue\.\[(.+?)\]\s*=\s*"(.*)"$/.exec(part.trim());
      if (!m) throw bitableFail(1254018, 'unsupported filter formula');
      rows = rows.filter((r) => matches(ctx, table, r, { field_name: m[1], operator: 'is', value: [m[2]] }));
    }
  }
  const items = rows.map((r) =>
    presentRecord(ctx, table, r, idType, { automatic: req.query.get('automatic_fields') === 'true' }),
  );
  return ok({ ...paginate(items, page.offset, page.size, scope), total: items.length });
}

function records(ctx: LarkContext, req: FakeRequest): { table: BitableTable; principal: Principal; idType: string } {
  const principal = bitableAuth(ctx, req);
  const idType = idTypeOf(req);
  return { table: findTable(ctx, req, principal).table, principal, idType };
}

export function bitableRecordRoutes(ctx: LarkContext): RouteDef[] {
  const route = (name: string, method: string, path: string, run: (req: FakeRequest) => FakeResponse): RouteDef => ({
    name,
    method,
    path,
    handler: (req) => guardedBitable(() => run(req))(),
  });
  const base = '/open-apis/bitable/v1/apps/:app_token/tables/:table_id/records';
  return [
    route('bitable.record.search', 'POST', `${base}/search`, (req) => search(ctx, req)),
    route('bitable.record.list', 'GET', base, (req) => legacyList(ctx, req)),
    route('bitable.record.create', 'POST', base, (req) => {
      const { table, principal, idType } = records(ctx, req);
      const body = bitableBody(req);
      return idempotent(ctx, req, () => ({
        record: presentRecord(ctx, table, addRecord(ctx, table, body.fields, principal, idType), idType),
      }));
    }),
    route('bitable.record.batch_create', 'POST', `${base}/batch_create`, (req) => {
      const { table, principal, idType } = records(ctx, req);
      const batch = batchOf(bitableBody(req));
      if (table.records.length + batch.length > MAX_RECORDS)
        throw bitableFail(1254103, 'a table holds at most 20,000 records');
      return idempotent(ctx, req, () => ({
        records: batch.map((r) =>
          presentRecord(ctx, table, addRecord(ctx, table, isRecord(r) ? r.fields : null, principal, idType), idType),
        ),
      }));
    }),
    route('bitable.record.get', 'GET', `${base}/:record_id`, (req) => {
      const { table, idType } = records(ctx, req);
      return ok({
        record: presentRecord(ctx, table, findRecord(table, req.params.record_id), idType, {
          automatic: req.query.get('automatic_fields') === 'true',
        }),
      });
    }),
    route('bitable.record.update', 'PUT', `${base}/:record_id`, (req) => {
      const { table, principal, idType } = records(ctx, req);
      const record = findRecord(table, req.params.record_id);
      const body = bitableBody(req);
      return idempotent(ctx, req, () => {
        writeFields(ctx, table, record, body.fields, principal, idType);
        return { record: presentRecord(ctx, table, record, idType) };
      });
    }),
    route('bitable.record.batch_update', 'POST', `${base}/batch_update`, (req) => {
      const { table, principal, idType } = records(ctx, req);
      const batch = batchOf(bitableBody(req)).map((r) => ({
        record: findRecord(table, isRecord(r) ? r.record_id : null),
        fields: isRecord(r) ? r.fields : null,
      }));
      return idempotent(ctx, req, () => ({
        records: batch.map(({ record, fields }) => {
          writeFields(ctx, table, record, fields, principal, idType);
          return presentRecord(ctx, table, record, idType);
        }),
      }));
    }),
    route('bitable.record.batch_get', 'POST', `${base}/batch_get`, (req) => {
      const { table, idType } = records(ctx, req);
      const body = bitableBody(req);
      const ids = body.record_ids;
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100)
        throw bitableFail(1254001, 'record_ids must hold 1-100 ids');
      const found = table.records.filter((r) => ids.includes(r.record_id));
      return ok({
        records: found.map((r) => presentRecord(ctx, table, r, idType, { automatic: body.automatic_fields === true })),
        absent_record_ids: ids.filter((id) => !found.some((r) => r.record_id === id)),
      });
    }),
    route('bitable.record.batch_delete', 'POST', `${base}/batch_delete`, (req) => {
      const { table } = records(ctx, req);
      const doomed = batchOf(bitableBody(req)).map((id) => findRecord(table, id));
      table.records = table.records.filter((r) => !doomed.includes(r));
      table.revision += 1;
      return ok({ records: doomed.map((r) => ({ deleted: true, record_id: r.record_id })) });
    }),
    route('bitable.record.delete', 'DELETE', `${base}/:record_id`, (req) => {
      const { table } = records(ctx, req);
      const record = findRecord(table, req.params.record_id);
      table.records = table.records.filter((r) => r !== record);
      table.revision += 1;
      return ok({ deleted: true, record_id: record.record_id });
    }),
  ];
}
