import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_MAX_FAILURES, Messages, SESSION_LIFETIME_MS } from '@release/contract';
import { sha256Hex } from '../src/lib/crypto.ts';
import { testDialects } from './helpers/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from './helpers/test-app.ts';

describe.each(testDialects())('sign-in and sessions on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('signs the admin in with the client-side SHA-256 digest and returns the session fields', async () => {
    const res = await server.request<{
      token: string;
      roleLevel: number;
      userId: number;
      username: string;
      tokenTime: number;
      url: string | null;
    }>('POST', '/api/user/login', {
      body: { username: ADMIN.username, password: sha256Hex(ADMIN.password) },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(res.body.data).toMatchObject({
      username: 'admin',
      roleLevel: 100,
      url: null,
      tokenTime: server.clock.now(),
    });
    expect(res.body.data.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const me = await server.request<{ username: string; roleName: string }>('GET', '/api/user/me', {
      token: res.body.data.token,
    });
    expect(me.body.data).toMatchObject({ username: 'admin', roleName: '管理员' });
  });

  it('accepts the username in any case', async () => {
    await expect(server.login('ADMIN', ADMIN.password)).resolves.toBeTruthy();
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    const wrong = await server.request('POST', '/api/user/login', {
      body: { username: 'admin', password: sha256Hex('nope') },
    });
    const unknown = await server.request('POST', '/api/user/login', {
      body: { username: 'ghost', password: sha256Hex('nope') },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe(Messages.wrongCredentials);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a plain-text password: the client must send the digest', async () => {
    const res = await server.request('POST', '/api/user/login', {
      body: { username: 'admin', password: ADMIN.password },
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('password');
  });

  it('rate-limits ten wrong passwords in a row for one user and address, even when the next one is right', async () => {
    await server.createUser({ username: 'victim', password: 'right-pass' });
    for (let i = 0; i < LOGIN_MAX_FAILURES; i += 1) {
      const res = await server.request('POST', '/api/user/login', {
        body: { username: 'victim', password: sha256Hex(`wrong-${i}`) },
      });
      expect(res.body.msg).toBe(Messages.wrongCredentials);
    }
    const locked = await server.request('POST', '/api/user/login', {
      body: { username: 'victim', password: sha256Hex('right-pass') },
    });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 429, msg: Messages.tooManyLoginFailures });
    // Other users from the same address are not locked out by it.
    await expect(server.login(ADMIN.username, ADMIN.password)).resolves.toBeTruthy();
    // The window passes.
    server.clock.advance(16 * 60 * 1000);
    await expect(server.login('victim', 'right-pass')).resolves.toBeTruthy();
  });

  it('a request without a token gets 401 with a message containing "token"', async () => {
    const res = await server.request('GET', '/api/user/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(401);
    expect(res.body.msg).toContain('token');
  });

  it('logout revokes the token on the server', async () => {
    const token = await server.login(ADMIN.username, ADMIN.password);
    expect((await server.request('GET', '/api/user/me', { token })).status).toBe(200);
    expect((await server.request('POST', '/api/user/logout', { token })).body.code).toBe(200);
    const after = await server.request('GET', '/api/user/me', { token });
    expect(after.status).toBe(401);
    expect(after.body.msg).toContain('token');
  });

  it('a session expires after 7 days', async () => {
    const token = await server.login(ADMIN.username, ADMIN.password);
    server.clock.advance(SESSION_LIFETIME_MS - 1000);
    expect((await server.request('GET', '/api/user/me', { token })).status).toBe(200);
    server.clock.advance(2000);
    const expired = await server.request('GET', '/api/user/me', { token });
    expect(expired.status).toBe(401);
    expect(expired.body.msg).toContain('token');
  });

  it('accepts the token as Authorization: Bearer for tools', async () => {
    const token = await server.login(ADMIN.username, ADMIN.password);
    const res = await server.request('GET', '/api/user/me', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
  });

  it('refuses the token of a deleted user', async () => {
    const { userId, token } = await server.createUser({ username: 'leaver' });
    expect((await server.request('GET', '/api/user/me', { token })).status).toBe(200);
    const del = await server.request('DELETE', `/api/user?userId=${userId}`, { token: await server.adminToken() });
    expect(del.body.code).toBe(200);
    const res = await server.request('GET', '/api/apps', { token });
    expect(res.status).toBe(401);
    expect(res.body.msg).toContain('token');
  });
});
