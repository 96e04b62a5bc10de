import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../shared/clock.ts';
import { bearer, call } from '../test-http.ts';
import { startLarkFake, type LarkFake } from './lark-fake.ts';
import type { LarkUser } from './lark-state.ts';

type Flat = {
  code: number;
  msg?: string;
  error?: string;
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
  [key: string]: unknown;
};

describe('Lark fake: app tokens and the OAuth sign-in', () => {
  let fake: LarkFake;
  let user: LarkUser;
  const redirectUri = 'http://127.0.0.1:5173/callback/feishu';

  beforeEach(async () => {
    fake = await startLarkFake({ clock: new FakeClock({ frozen: true }) });
    user = fake.addUser({ name: '张三', mobile: '+8613800000001', email: 'z@example.com' });
  });
  afterEach(() => fake.close());

  const tenant = (secret = fake.app.appSecret) =>
    call<Flat>(`${fake.url}/open-apis/auth/v3/tenant_access_token/internal`, {
      body: { app_id: fake.app.appId, app_secret: secret },
    });
  const token = (body: Record<string, unknown>, headers?: Record<string, string>) =>
    call<Flat>(`${fake.url}/open-apis/authen/v2/oauth/token`, {
      body: { grant_type: 'authorization_code', client_id: fake.app.appId, client_secret: fake.app.appSecret, ...body },
      headers,
    });
  const authorize = (query: Record<string, string>) =>
    call(
      `${fake.url}/open-apis/authen/v1/authorize?${new URLSearchParams({ client_id: fake.app.appId, response_type: 'code', redirect_uri: redirectUri, ...query })}`,
    );
  async function codeFor(query: Record<string, string> = {}): Promise<string> {
    fake.setNextLogin({ openId: user.openId });
    const answer = await authorize({ state: 's', ...query });
    return new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? '';
  }

  describe('tenant token', () => {
    it('returns the same token while 30 minutes or more remain, a new one after, both valid', async () => {
      const first = (await tenant()).body;
      expect(first).toMatchObject({ code: 0, msg: 'ok', expire: 7200 });
      expect(first.tenant_access_token).toMatch(/^t-/);
      await fake.advance(90 * 60_000);
      expect((await tenant()).body).toMatchObject({ tenant_access_token: first.tenant_access_token, expire: 1800 });
      await fake.advance(1000);
      const second = (await tenant()).body;
      expect(second.tenant_access_token).not.toBe(first.tenant_access_token);
      expect(second.expire).toBe(7200);
      const ticket = await call<Flat>(`${fake.url}/open-apis/jssdk/ticket/get`, {
        body: {},
        headers: bearer(String(first.tenant_access_token)),
      });
      expect(ticket.body.code).toBe(0);
      await fake.advance(1800_000);
      const expired = await call<Flat>(`${fake.url}/open-apis/jssdk/ticket/get`, {
        body: {},
        headers: bearer(String(first.tenant_access_token)),
      });
      expect([expired.status, expired.body.code]).toEqual([400, 99991663]);
    });

    it('answers a bad secret with HTTP 200 and 10014', async () => {
      const bad = await tenant('wrong');
      expect([bad.status, bad.body.code, bad.body.msg]).toEqual([200, 10014, 'app secret invalid']);
    });

    it('checks the bearer: 99991661 missing, 99991671 wrong shape, 99991668 unknown user token', async () => {
      const url = `${fake.url}/open-apis/authen/v1/user_info`;
      expect((await call<Flat>(url)).body.code).toBe(99991661);
      expect((await call<Flat>(url, { headers: bearer('x-123') })).body.code).toBe(99991671);
      expect((await call<Flat>(url, { headers: bearer('u-unknown') })).body.code).toBe(99991668);
    });
  });

  describe('authorize page', () => {
    it('redirects with code and state, before any fragment', async () => {
      fake.setNextLogin({ openId: user.openId });
      const answer = await authorize({ state: 'success_login.abc', redirect_uri: `${redirectUri}?from=x#frag` });
      expect(answer.status).toBe(302);
      const location = answer.headers.get('location') ?? '';
      expect(location).toMatch(
        /^http:\/\/127\.0\.0\.1:5173\/callback\/feishu\?from=x&code=[A-Za-z0-9_-]{64}&state=success_login\.abc#frag$/,
      );
    });

    it('sends a denial back as error=access_denied with the state', async () => {
      fake.setNextLogin({ deny: true });
      const answer = await authorize({ state: 's1' });
      expect(answer.headers.get('location')).toBe(`${redirectUri}?error=access_denied&state=s1`);
    });

    it('refuses a redirect outside the whitelist (20029) and an unknown app (20048)', async () => {
      const outside = await authorize({ redirect_uri: 'https://evil.example/callback' });
      expect([outside.status, String(outside.body)]).toEqual([400, expect.stringContaining('20029')]);
      const unknown = await call(
        `${fake.url}/open-apis/authen/v1/authorize?client_id=cli_nope&response_type=code&redirect_uri=${encodeURIComponent(redirectUri)}`,
      );
      expect(String(unknown.body)).toContain('20048');
    });

    it('shows a chooser listing the users when nobody was queued', async () => {
      const page = await authorize({ state: 's' });
      expect(page.status).toBe(200);
      expect(String(page.body)).toContain('张三');
      expect(String(page.body)).toContain('拒绝授权');
    });
  });

  describe('authen/v2/oauth/token', () => {
    it('trades a code once for a user token that reads the profile with the granted scopes', async () => {
      const code = await codeFor({ scope: 'contact:user.phone:readonly' });
      const first = await token({ code, redirect_uri: redirectUri });
      expect(first.body).toMatchObject({
        code: 0,
        expires_in: 7200,
        token_type: 'Bearer',
        scope: 'contact:user.phone:readonly',
      });
      expect(first.body).not.toHaveProperty('refresh_token');
      expect(first.body.access_token).toMatch(/^eyJ/);
      const info = await call<{ code: number; data: Record<string, unknown> }>(
        `${fake.url}/open-apis/authen/v1/user_info`,
        { headers: bearer(String(first.body.access_token)) },
      );
      expect(info.body.data).toMatchObject({ open_id: user.openId, name: '张三', mobile: '+8613800000001' });
      expect(info.body.data).not.toHaveProperty('email');
      const again = await token({ code });
      expect([again.status, again.body.code, again.body.error]).toEqual([400, 20065, 'invalid_grant']);
    });

    it('refuses unknown (20003), expired (20004) and mismatched-redirect (20071) codes', async () => {
      expect((await token({ code: 'nope' })).body.code).toBe(20003);
      const late = await codeFor();
      await fake.advance(5 * 60_000);
      expect((await token({ code: late })).body.code).toBe(20004);
      expect((await token({ code: await codeFor(), redirect_uri: 'http://127.0.0.1:5173/other' })).body.code).toBe(
        20071,
      );
    });

    it('refuses a bad secret (20002) and two client authentication methods (20070)', async () => {
      expect((await token({ code: await codeFor(), client_secret: 'wrong' })).body.code).toBe(20002);
      const basic = `Basic ${Buffer.from(`${fake.app.appId}:${fake.app.appSecret}`).toString('base64')}`;
      expect((await token({ code: await codeFor() }, { authorization: basic })).body.code).toBe(20070);
    });

    it('checks PKCE S256', async () => {
      const verifier = 'v'.repeat(43);
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const code = await codeFor({ code_challenge: challenge, code_challenge_method: 'S256' });
      expect((await token({ code, code_verifier: 'w'.repeat(43) })).body.code).toBe(20049);
      expect((await token({ code, code_verifier: verifier })).body.code).toBe(0);
    });

    it('refreshes only with offline_access, rotating the refresh token', async () => {
      const granted = await token({ code: await codeFor({ scope: 'offline_access' }) });
      const refreshToken = String(granted.body.refresh_token);
      expect(granted.body.refresh_token_expires_in).toBe(604800);
      const refresh = (value: string) =>
        call<Flat>(`${fake.url}/open-apis/authen/v2/oauth/token`, {
          body: {
            grant_type: 'refresh_token',
            client_id: fake.app.appId,
            client_secret: fake.app.appSecret,
            refresh_token: value,
          },
        });
      const rotated = await refresh(refreshToken);
      expect(rotated.body.code).toBe(0);
      expect(rotated.body.refresh_token).not.toBe(refreshToken);
      expect((await refresh(refreshToken)).body.code).toBe(20073);
    });

    it('a user token expires after its lifetime with 99991677', async () => {
      const granted = await token({ code: await codeFor() });
      await fake.advance(7200_000);
      const info = await call<Flat>(`${fake.url}/open-apis/authen/v1/user_info`, {
        headers: bearer(String(granted.body.access_token)),
      });
      expect([info.status, info.body.code]).toEqual([400, 99991677]);
    });

    it('answers 429 / 99991400 with the reset header once the per-second limit is used', async () => {
      fake.setRateLimit('oauth.token', { perSecond: 2 });
      await token({ code: 'a' });
      await token({ code: 'b' });
      const limited = await token({ code: 'c' });
      expect([limited.status, limited.body.code, limited.headers.get('x-ogw-ratelimit-reset')]).toEqual([
        429,
        99991400,
        '1',
      ]);
      await fake.advance(1000);
      expect((await token({ code: 'd' })).status).toBe(400);
    });
  });
});
