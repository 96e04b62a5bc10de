import { randomBytes, randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { AppleFake } from '@release/fakes';
import type { Database } from '../../src/db/schema.ts';
import { makeAppleIdentity, makeP12, makeSignedProfile } from '@release/inspect/testing/identities.ts';
import { createSecretBox, type SecretBox } from '../../src/lib/secret-box.ts';
import { SEALED_COLUMNS } from '../../src/modules/settings/sealed-values.repository.ts';
import { TEST_POSTGRES_URL } from './dialects.ts';
import { TEST_CLOCK_START, type TestServer } from './test-app.ts';

/** The plain texts of every kind of stored secret one server holds, as its users typed or received them. */
export interface StoredSecrets {
  appId: number;
  installPassword: string;
  workflowId: number;
  webhookSecret: string;
  robotSecret: string;
  certificateId: number;
  p12Password: string;
  appleAccountId: number;
  p8: string;
}

const ok = <T>(res: { status: number; body: { code: number; msg: string; data: T } }, what: string): T => {
  if (res.body.code !== 200) throw new Error(`${what}: ${res.status} ${res.body.msg}`);
  return res.body.data;
};

/** Stores one secret of each kind through the API: an install password, a workflow (webhook and robot secrets), a .p12 with its password, an Apple .p8. */
export async function storeEverySecret(
  server: Pick<TestServer, 'url' | 'request'>,
  apple: AppleFake,
  admin: string,
  tag = randomBytes(3).toString('hex'),
  now = TEST_CLOCK_START,
): Promise<StoredSecrets> {
  // SPEC: 6-10 digits; ten random digits do not turn up in a database by chance.
  const installPassword = String(1_000_000_000 + (randomBytes(4).readUInt32BE(0) % 9_000_000_000)).padStart(10, '0');
  const { appId } = ok(
    await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: { appName: `秘密 ${tag}`, appType: 'native', password: installPassword, path: `sec${tag}` },
    }),
    'create app',
  );
  const robotSecret = `robot-${tag}-${randomBytes(6).toString('hex')}`;
  const workflow = ok(
    await server.request<{ id: number }>('POST', '/api/workflow', {
      token: admin,
      body: {
        appId,
        contentType: 'custom',
        tabName: '推送',
        manageType: 'other',
        robotUrl: `https://open.feishu.cn/open-apis/bot/v2/hook/${tag}`,
        robotSecret,
      },
    }),
    'create workflow',
  );
  const listed = ok(
    await server.request<Array<{ id: number; webhookSecret: string | null }>>('GET', `/api/workflow?appId=${appId}`, {
      token: admin,
    }),
    'list workflows',
  );
  const webhookSecret = listed.find((w) => w.id === workflow.id)?.webhookSecret ?? '';
  expect(webhookSecret.length).toBeGreaterThan(20);

  const p12Password = `p12-${tag}-${randomBytes(4).toString('hex')}`;
  const identity = makeAppleIdentity({
    teamId: 'ABCDE12345',
    commonName: `Apple Development: 秘密 ${tag} (ABCDE12345)`,
    serial: randomBytes(3).toString('hex'),
    now,
  });
  const profileSigner = makeAppleIdentity({
    commonName: 'Apple iPhone OS Provisioning Profile Signing',
    teamId: 'APPLE',
    now,
  });
  const profile = makeSignedProfile(
    [identity],
    profileSigner,
    {
      Name: `Demo ${tag}`,
      UUID: randomUUID(),
      TeamIdentifier: ['ABCDE12345'],
      Entitlements: { 'application-identifier': 'ABCDE12345.com.example.demo' },
    },
    now,
  );
  const form = new FormData();
  form.append('password', p12Password);
  form.append('p12', new Blob([new Uint8Array(makeP12(identity, p12Password))]), 'dev.p12');
  form.append('profiles', new Blob([new Uint8Array(profile)]), 'demo.mobileprovision');
  const uploaded = (await (
    await fetch(`${server.url}/api/cert_upload`, { method: 'POST', headers: { token: admin }, body: form })
  ).json()) as { code: number; msg: string; data: { id: number } };
  if (uploaded.code !== 200) throw new Error(`cert_upload: ${uploaded.msg}`);

  const key = apple.addKey();
  const account = ok(
    await server.request<{ id: number }>('POST', '/api/apple_account', {
      token: admin,
      body: { name: `账号 ${tag}`, issuerId: key.issuerId, keyId: key.keyId, privateKey: key.p8 },
    }),
    'add Apple account',
  );
  return {
    appId,
    installPassword,
    workflowId: workflow.id,
    webhookSecret,
    robotSecret,
    certificateId: uploaded.data.id,
    p12Password,
    appleAccountId: account.id,
    p8: key.p8,
  };
}

/** Reads the install password and webhook secret back through the API, and opens every sealed value with `box`. */
export async function expectSecretsReadable(
  server: Pick<TestServer, 'request'>,
  db: Kysely<Database>,
  box: SecretBox,
  admin: string,
  secrets: StoredSecrets,
) {
  const app = ok(
    await server.request<{ password: string }>('GET', `/api/app?appId=${secrets.appId}`, { token: admin }),
    'app detail',
  );
  expect(app.password).toBe(secrets.installPassword);
  const flows = ok(
    await server.request<Array<{ id: number; webhookSecret: string | null }>>(
      'GET',
      `/api/workflow?appId=${secrets.appId}`,
      { token: admin },
    ),
    'workflows',
  );
  expect(flows.find((w) => w.id === secrets.workflowId)?.webhookSecret).toBe(secrets.webhookSecret);
  await expectSealedWith(db, box, secrets);
}

/** Every sealed value of `secrets` opens with `box` to what was stored. */
export async function expectSealedWith(db: Kysely<Database>, box: SecretBox, secrets: StoredSecrets) {
  const app = await db.selectFrom('apps').select('password').where('id', '=', secrets.appId).executeTakeFirstOrThrow();
  expect(box.open(app.password)).toBe(secrets.installPassword);
  const row = await db
    .selectFrom('workflows')
    .select(['robot_secret', 'webhook_secret'])
    .where('id', '=', secrets.workflowId)
    .executeTakeFirstOrThrow();
  expect(box.open(row.robot_secret ?? '')).toBe(secrets.robotSecret);
  expect(box.open(row.webhook_secret)).toBe(secrets.webhookSecret);
  const cert = await db
    .selectFrom('certificates')
    .select(['private_key_sealed', 'password_sealed'])
    .where('id', '=', secrets.certificateId)
    .executeTakeFirstOrThrow();
  expect(box.open(cert.password_sealed)).toBe(secrets.p12Password);
  expect(box.open(cert.private_key_sealed)).toContain('PRIVATE KEY');
  const account = await db
    .selectFrom('apple_accounts')
    .select('private_key_sealed')
    .where('id', '=', secrets.appleAccountId)
    .executeTakeFirstOrThrow();
  expect(box.open(account.private_key_sealed).trim()).toBe(secrets.p8.trim());
}

/** What a thief who took only the database gets: the SQLite file with its WAL, or a PostgreSQL dump of the schema. */
export function databaseAlone(server: TestServer): string {
  if (server.sqliteFile) {
    const parts = [server.sqliteFile, `${server.sqliteFile}-wal`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f));
    return Buffer.concat(parts).toString('latin1');
  }
  const dump = spawnSync('pg_dump', ['--no-owner', '--schema', server.schema, TEST_POSTGRES_URL], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (dump.status !== 0) throw new Error(`pg_dump failed: ${dump.stderr}`);
  return dump.stdout;
}

const SEALED_VALUE = /v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*/g;

/**
 * Asserts the database alone holds no usable secret: no plain text of any stored secret, no key material, and no
 * sealed value that opens with anything stored beside it. Also checks that every sealed value lives in a column
 * SEALED_COLUMNS lists (so rotation covers it).
 */
export async function expectNothingUsableInDatabase(server: TestServer, secrets: StoredSecrets[], keys: string[]) {
  const dump = databaseAlone(server);
  const plainTexts = secrets.flatMap((s) => [
    s.installPassword,
    s.webhookSecret,
    s.robotSecret,
    s.p12Password,
    s.p8.trim().split('\n')[1] ?? 'p8-body',
  ]);
  for (const text of [...plainTexts, ...keys])
    expect(dump.includes(text), `found "${text.slice(0, 12)}…" in the database`).toBe(false);
  expect(dump.includes('PRIVATE KEY')).toBe(false);

  // Every stored string is tried as a key on every sealed value: none may open one.
  const sealed = [...new Set([...(dump.match(SEALED_VALUE) ?? []), ...(await sealedValues(server.db))])];
  expect(sealed.length).toBeGreaterThanOrEqual(secrets.length * 6);
  const candidates = await storedStrings(server.db, server.sqliteFile ? 'sqlite' : 'postgres');
  expect(candidates.length).toBeGreaterThan(0);
  for (const candidate of candidates) {
    const box = createSecretBox(candidate);
    for (const value of sealed) expect(() => box.open(value)).toThrow();
  }
  await expectSealedColumnsListed(server.db, server.sqliteFile ? 'sqlite' : 'postgres');
}

async function textColumns(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
): Promise<Array<{ table: string; column: string }>> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'character varying')`.execute(db);
    return rows.map((r) => ({ table: r.table_name, column: r.column_name }));
  }
  const tables = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
  const out: Array<{ table: string; column: string }> = [];
  for (const t of tables.rows) {
    const cols = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${t.name})`.execute(
      db,
    );
    for (const c of cols.rows) if (/char|text/i.test(c.type)) out.push({ table: t.name, column: c.name });
  }
  return out;
}

/** Every string of key length stored anywhere in the database (settings, tokens, names): what a thief would try as the key. */
async function storedStrings(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const out = new Set<string>();
  for (const { table, column } of await textColumns(db, dialect)) {
    const { rows } = await sql<{
      v: string;
    }>`select distinct ${sql.id(column)} as v from ${sql.id(table)} where length(${sql.id(column)}) between 32 and 512`.execute(
      db,
    );
    for (const r of rows) out.add(r.v);
  }
  return [...out];
}

export async function sealedValues(db: Kysely<Database>): Promise<string[]> {
  const out: string[] = [];
  for (const { table, column } of SEALED_COLUMNS) {
    const { rows } = await sql<{
      v: string;
    }>`select ${sql.id(column)} as v from ${sql.id(table)} where ${sql.id(column)} is not null`.execute(db);
    out.push(...rows.map((r) => r.v));
  }
  return out;
}

async function expectSealedColumnsListed(db: Kysely<Database>, dialect: 'sqlite' | 'postgres') {
  const listed = new Set(SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`));
  const found: string[] = [];
  for (const { table, column } of await textColumns(db, dialect)) {
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from ${sql.id(table)} where ${sql.id(column)} like 'v1.%.%.%'`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0) found.push(`${table}.${column}`);
  }
  expect(found.length).toBeGreaterThan(0);
  for (const name of found)
    expect(listed.has(name), `${name} holds sealed values but is not in SEALED_COLUMNS`).toBe(true);
}
