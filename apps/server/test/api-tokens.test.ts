import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenMessages, ResultCode, type ApiTokenRow, type CreatedApiToken } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(testDialects())('API tokens on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let alice: { userId: number; token: string };
  let bob: { userId: number; token: string };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    alice = await server.createUser({ username: 'alice', roleLevel: 30 });
    bob = await server.createUser({ username: 'bob', roleLevel: 30 });
  });
  afterAll(async () => {
    await server?.close();
  });

  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  const create = (session: string, body: Record<string, unknown>) =>
    server.request<CreatedApiToken>('POST', '/api/api_token', { token: session, body });
  const list = (session: string, query = '') =>
    server.request<ApiTokenRow[]>('GET', `/api/api_tokens${query}`, { token: session });
  const lastUsed = async (id: number) =>
    (await server.db.selectFrom('api_tokens').select('last_used_time').where('id', '=', id).executeTakeFirstOrThrow())
      .last_used_time;

  it('creates a token shown once, lists it without the secret and stores only its hash', async () => {
    const res = await create(alice.token, { name: ' CI 流水线 ' });
    expect(res.body.code).toBe(200);
    const created = res.body.data;
    expect(created.token).toMatch(/^rst_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      userId: alice.userId,
      name: 'CI 流水线',
      prefix: created.token.slice(0, 8),
      expireTime: null,
      revokedTime: null,
      lastUsedTime: null,
    });

    const listed = await list(alice.token);
    expect(listed.body.total).toBe(1);
    expect(listed.body.data[0]).toEqual({ ...created, token: undefined });
    expect(JSON.stringify(listed.body)).not.toContain(created.token);
    const stored = await server.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(created.token.slice(8));
  });

  it('signs in with the token as Bearer or in the token header, and records its use at most once a minute', async () => {
    const { data: created } = (await create(alice.token, { name: 'laptop' })).body;
    const apps = await server.request<unknown[]>('GET', '/api/apps', bearer(created.token));
    expect(apps.status).toBe(200);
    const me = await server.request<{ username: string }>('GET', '/api/user/me', { token: created.token });
    expect(me.body.data.username).toBe('alice');
    const lower = await server.request('GET', '/api/user/me', {
      headers: { authorization: `bearer ${created.token}` },
    });
    expect(lower.status).toBe(200);

    const firstUse = await lastUsed(created.id);
    expect(firstUse).toBe(server.clock.now());
    server.clock.advance(30_000);
    await server.request('GET', '/api/user/me', bearer(created.token));
    expect(await lastUsed(created.id)).toBe(firstUse);
    server.clock.advance(31_000);
    await server.request('GET', '/api/user/me', bearer(created.token));
    expect(await lastUsed(created.id)).toBe(server.clock.now());
  });

  it('refuses a revoked token with the session-expired 401', async () => {
    const { data: created } = (await create(alice.token, { name: 'to revoke' })).body;
    expect((await server.request('GET', '/api/apps', bearer(created.token))).status).toBe(200);
    const revoked = await server.request('DELETE', `/api/api_token?id=${created.id}`, { token: alice.token });
    expect(revoked.body.code).toBe(200);
    const refused = await server.request('GET', '/api/apps', bearer(created.token));
    expect(refused.status).toBe(401);
    expect(refused.body.msg).toContain('token');
    const row = (await list(alice.token)).body.data.find((t) => t.id === created.id);
    expect(row?.revokedTime).toBe(server.clock.now());
    // Revoking again is harmless; an unknown id is not found.
    expect((await server.request('DELETE', `/api/api_token?id=${created.id}`, { token: alice.token })).body.code).toBe(
      200,
    );
    expect((await server.request('DELETE', '/api/api_token?id=999999', { token: alice.token })).status).toBe(404);
  });

  it('refuses an expired token the same way, and unknown rst_ tokens too', async () => {
    const { data: created } = (await create(alice.token, { name: 'one day', expireDays: 1 })).body;
    expect(created.expireTime).toBe(server.clock.now() + DAY_MS);
    expect((await server.request('GET', '/api/apps', bearer(created.token))).status).toBe(200);
    server.clock.advance(DAY_MS);
    const refused = await server.request('GET', '/api/apps', bearer(created.token));
    expect([refused.status, refused.body.msg.includes('token')]).toEqual([401, true]);
    const unknown = await server.request('GET', '/api/apps', bearer(`rst_${'A'.repeat(43)}`));
    expect([unknown.status, unknown.body.msg.includes('token')]).toEqual([401, true]);
    const bad = await create(alice.token, { name: 'forever and more', expireDays: 0 });
    expect(bad.status).toBe(400);
  });

  it('keeps plain users to their own tokens', async () => {
    const forBob = await create(alice.token, { name: 'for bob', userId: bob.userId });
    expect([forBob.status, forBob.body.code]).toEqual([403, ResultCode.noPermission]);
    const bobsList = await list(alice.token, `?userId=${bob.userId}`);
    expect([bobsList.status, bobsList.body.code]).toEqual([403, ResultCode.noPermission]);
    const { data: bobs } = (await create(bob.token, { name: 'bob ci' })).body;
    const revokeOther = await server.request('DELETE', `/api/api_token?id=${bobs.id}`, { token: alice.token });
    expect(revokeOther.status).toBe(404);
    expect((await server.request('GET', '/api/user/me', bearer(bobs.token))).status).toBe(200);
    expect((await list(alice.token)).body.data.every((t) => t.userId === alice.userId)).toBe(true);
  });

  it('lets admins create, list and revoke tokens of other users', async () => {
    const created = await create(admin, { name: 'bob deploy', userId: bob.userId, expireDays: 30 });
    expect(created.body.data.userId).toBe(bob.userId);
    const me = await server.request<{ username: string; roleLevel: number }>(
      'GET',
      '/api/user/me',
      bearer(created.body.data.token),
    );
    expect(me.body.data).toMatchObject({ username: 'bob', roleLevel: 30 });
    // A token never carries more rights than its user: bob's token is refused on admin routes.
    expect((await server.request('GET', '/api/roles', bearer(created.body.data.token))).status).toBe(403);

    const bobsTokens = await list(admin, `?userId=${bob.userId}&pageSize=1`);
    expect([bobsTokens.body.total, bobsTokens.body.data[0]?.name]).toEqual([2, 'bob deploy']);
    expect(
      (await server.request('DELETE', `/api/api_token?id=${created.body.data.id}`, { token: admin })).body.code,
    ).toBe(200);
    expect((await server.request('GET', '/api/user/me', bearer(created.body.data.token))).status).toBe(401);
    expect((await create(admin, { name: 'ghost', userId: 999999 })).status).toBe(404);
  });

  it('does not let a token mint new tokens, and dies with its user', async () => {
    const carol = await server.createUser({ username: 'carol', roleLevel: 30 });
    const { data: created } = (await create(carol.token, { name: 'carol ci' })).body;
    const minted = await server.request('POST', '/api/api_token', {
      ...bearer(created.token),
      body: { name: 'longer' },
    });
    expect([minted.status, minted.body.msg]).toEqual([403, ApiTokenMessages.sessionRequired]);
    expect((await server.request('GET', '/api/api_tokens', bearer(created.token))).body.code).toBe(200);

    expect((await server.request('DELETE', `/api/user?userId=${carol.userId}`, { token: admin })).body.code).toBe(200);
    expect((await server.request('GET', '/api/user/me', bearer(created.token))).status).toBe(401);
    const rows = await server.db.selectFrom('api_tokens').select('id').where('user_id', '=', carol.userId).execute();
    expect(rows).toEqual([]);
  });
});
