import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LARK_LOGIN_SCOPES, SignInMessages } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { approve, startSignInWorld, TestBrowser, type LoginData, type SignInWorld } from './helpers/sign-in-fakes.ts';

type QrAnswer = { qrId: string; url: string | null; expiresAt: number | null; status: string; login: LoginData | null };

describe.each(testDialects())('Lark sign-in inside the client, by QR and from a terminal on %s', (dialect) => {
  let world: SignInWorld;
  beforeAll(async () => {
    world = await startSignInWorld(dialect);
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(() => world.lark.reset());

  describe('silent login inside the Lark client (auto_login=1)', () => {
    it('signs in with a code from the JS bridge, without a state, once', async () => {
      const user = world.lark.addUser({ name: '客户端用户' });
      const code = world.lark.mintCode({ openId: user.openId, scopes: [...LARK_LOGIN_SCOPES], ttlMs: 3 * 60_000 });
      const browser = new TestBrowser(world.server);
      const login = await browser.larkLogin({ code });
      expect(login.body.code).toBe(200);
      expect(login.body.data).toMatchObject({ username: '客户端用户', roleLevel: 10 });
      // The bridge's code never carried a redirect URI, so the exchange must not send one.
      const exchange = world.lark.requests.find((r) => r.route === 'oauth.token');
      expect(exchange?.body).not.toHaveProperty('redirect_uri');
      expect((await browser.larkLogin({ code })).body.msg).toBe(SignInMessages.codeRejected);
    });

    it('refuses a bridge code that expired after its 3 minutes', async () => {
      const user = world.lark.addUser({ name: '迟到的码' });
      const code = world.lark.mintCode({ openId: user.openId, ttlMs: 3 * 60_000 });
      await world.lark.advance(3 * 60_000);
      const late = await new TestBrowser(world.server).larkLogin({ code });
      expect(late.status).toBe(400);
      expect(late.body.msg).toBe(SignInMessages.codeRejected);
    });

    it('signs the page URL (without its fragment) with a jsapi ticket the Lark client accepts, fetched once', async () => {
      const page = `${world.server.url}/login?auto_login=1&redirect=%2Fhome%2Fapp`;
      const res = await world.server.request<{ appId: string; timestamp: number; nonceStr: string; signature: string }>(
        'GET',
        `/api/user/lark_jsapi_config?url=${encodeURIComponent(`${page}#/anchor`)}`,
      );
      expect(res.body.code).toBe(200);
      expect(res.body.data.appId).toBe(world.lark.app.appId);
      const ticket = world.lark.state.jsTickets[0]?.ticket ?? '';
      expect(
        world.lark.verifyJsapiSignature({
          ticket,
          nonceStr: res.body.data.nonceStr,
          timestamp: res.body.data.timestamp,
          url: page,
          signature: res.body.data.signature,
        }),
      ).toMatchObject({ ok: true });
      const again = await world.server.request<{ signature: string }>(
        'GET',
        `/api/user/lark_jsapi_config?url=${encodeURIComponent(page)}`,
      );
      expect(again.body.code).toBe(200);
      expect(world.lark.jsTicketCalls).toBe(1);
    });

    it('signs only pages of this site', async () => {
      const res = await world.server.request(
        'GET',
        `/api/user/lark_jsapi_config?url=${encodeURIComponent('https://evil.example/login')}`,
      );
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(SignInMessages.urlNotOurs);
    });
  });

  describe('QR login on the login page', () => {
    /** The login page showing the QR: it keeps the cookie its QR was issued with. */
    async function waitingScreen() {
      const screen = new TestBrowser(world.server);
      const started = await screen.api<QrAnswer>('GET', '/api/user/lark_qr_login');
      expect(started.body.data).toMatchObject({ status: 'pending', login: null });
      const { qrId, url } = started.body.data;
      const poll = () => screen.api<QrAnswer>('GET', `/api/user/lark_qr_login?qrId=${encodeURIComponent(qrId)}`);
      return { screen, qrId, url: url ?? '', poll };
    }
    const pollElsewhere = (qrId: string) =>
      world.server.request<QrAnswer>('GET', `/api/user/lark_qr_login?qrId=${encodeURIComponent(qrId)}`);

    it('waits while the phone has not approved, then hands the waiting screen its session once', async () => {
      const phoneUser = world.lark.addUser({ name: '扫码人' });
      const { qrId, url, poll } = await waitingScreen();
      expect(qrId).toMatch(/^qr_login\./);
      expect((await poll()).body.data).toMatchObject({ status: 'pending', login: null });

      // The phone scans the QR (the authorize URL), approves in Lark and lands on /callback/feishu.
      world.lark.setNextLogin({ openId: phoneUser.openId });
      const back = await approve(url);
      expect(`${back.landing.origin}${back.landing.pathname}`).toBe(`${world.server.url}/callback/feishu`);
      expect(back.state).toBe(qrId);
      const confirmed = await world.server.request<{ status: string }>('POST', '/api/user/lark_qr_login', {
        body: { state: back.state, code: back.code },
      });
      expect(confirmed.body.data).toEqual({ status: 'done' });

      const done = await poll();
      expect(done.body.data.status).toBe('done');
      expect(done.body.data.login).toMatchObject({ username: '扫码人' });
      const me = await world.server.request<{ username: string }>('GET', '/api/user/me', {
        token: done.body.data.login?.token,
      });
      expect(me.body.data.username).toBe('扫码人');
      // Taken once: another poll gets nothing, and the phone cannot confirm twice.
      expect((await poll()).body.data).toMatchObject({ status: 'expired', login: null });
      const twice = await world.server.request('POST', '/api/user/lark_qr_login', {
        body: { state: back.state, code: back.code },
      });
      expect(twice.body.msg).toBe(SignInMessages.stateInvalid);
    });

    it('gives the session only to the screen that shows the QR, not to someone who photographed it', async () => {
      const phoneUser = world.lark.addUser({ name: '被偷看的人' });
      const { url, qrId, poll } = await waitingScreen();
      world.lark.setNextLogin({ openId: phoneUser.openId });
      const back = await approve(url);
      await world.server.request('POST', '/api/user/lark_qr_login', { body: { state: back.state, code: back.code } });
      expect((await pollElsewhere(qrId)).body.data).toMatchObject({ status: 'expired', login: null });
      expect((await poll()).body.data.login).toMatchObject({ username: '被偷看的人' });
    });

    it('tells the waiting screen when the phone declined', async () => {
      const { qrId, poll } = await waitingScreen();
      const declined = await world.server.request<{ status: string }>('POST', '/api/user/lark_qr_login', {
        body: { state: qrId, error: 'access_denied' },
      });
      expect(declined.body.data).toEqual({ status: 'denied' });
      expect((await poll()).body.data).toMatchObject({ status: 'denied', login: null });
    });

    it('lets a QR expire after 10 minutes', async () => {
      const { poll } = await waitingScreen();
      world.server.clock.advance(10 * 60_000 + 1);
      expect((await poll()).body.data.status).toBe('expired');
    });
  });

  describe('terminal login (release-cli login --lark)', () => {
    it("hands the CLI a state carrying its port, and the code it receives signs it in without a browser's cookie", async () => {
      const user = world.lark.addUser({ name: '终端用户' });
      const cli = new TestBrowser(world.server);
      const { url, state } = await cli.larkLoginUrl('?mode=terminal_login&port=45678');
      expect(state).toMatch(/^terminal_login\.45678\.[A-Za-z0-9_-]{32}$/);
      expect(cli.cookieHeader).toBe('');
      world.lark.setNextLogin({ openId: user.openId });
      const back = await approve(url);
      const login = await cli.larkLogin({ code: back.code, state: back.state });
      expect(login.body.data).toMatchObject({ username: '终端用户' });
      expect((await cli.larkLogin({ code: back.code, state: back.state })).body.msg).toBe(SignInMessages.stateInvalid);
    });

    it('needs the port of the local listener', async () => {
      const res = await new TestBrowser(world.server).api('GET', '/api/user/lark_login_url?mode=terminal_login');
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('终端登录需要本地端口 port');
    });
  });

  describe('when Lark refuses or fails', () => {
    async function codeFor(name: string, seed: Parameters<SignInWorld['lark']['addUser']>[0] = { name }) {
      const user = world.lark.addUser(seed);
      return world.lark.mintCode({ openId: user.openId });
    }

    it('renews a tenant token Lark revoked early and carries on', async () => {
      // Two hours on: the cached ticket is due; the server holds a tenant token that Lark then revokes.
      world.server.clock.advance(7200_000);
      const stale = await world.server.built.core.lark?.tenantToken();
      expect(stale).toMatch(/^t-/);
      world.lark.expireToken(stale ?? '');
      const res = await world.server.request<{ signature: string }>(
        'GET',
        `/api/user/lark_jsapi_config?url=${encodeURIComponent(`${world.server.url}/login`)}`,
      );
      expect(res.body.code).toBe(200);
      const calls = world.lark.requests
        .filter((r) => r.route === 'jssdk.ticket' || r.route === 'auth.tenant_access_token')
        .map((r) => [r.route, r.status]);
      expect(calls).toEqual([
        ['auth.tenant_access_token', 200],
        ['jssdk.ticket', 400],
        ['auth.tenant_access_token', 200],
        ['jssdk.ticket', 200],
      ]);
      const tokens = world.lark.requests.filter((r) => r.route === 'jssdk.ticket').map((r) => r.headers.authorization);
      expect(tokens[1]).not.toBe(tokens[0]);
    });

    it('says Lark is unreachable when it is down or rate limits us', async () => {
      world.lark.injectError({
        route: 'oauth.token',
        status: 503,
        body: { code: 20072, error: 'temporarily_unavailable', error_description: 'server is temporarily unavailable' },
      });
      const down = await new TestBrowser(world.server).larkLogin({ code: await codeFor('停机') });
      expect(down.status).toBe(500);
      expect(down.body.msg).toBe(SignInMessages.providerUnavailable);
      world.lark.setRateLimit('oauth.token', { perSecond: 1 });
      await world.server.request('POST', '/api/user/lark_login', { body: { code: await codeFor('先来') } });
      const limited = await new TestBrowser(world.server).larkLogin({ code: await codeFor('后到') });
      expect(limited.body.msg).toBe(SignInMessages.providerUnavailable);
      world.lark.setRateLimit('oauth.token', { perMinute: 1000, perSecond: 50 });
    });

    it('says a resigned or unavailable Lark account may not sign in', async () => {
      const resigned = await new TestBrowser(world.server).larkLogin({
        code: await codeFor('离职者', { name: '离职者', status: 'resigned' }),
      });
      expect(resigned.status).toBe(400);
      expect(resigned.body.msg).toBe(SignInMessages.larkUserBlocked);
      const outside = await new TestBrowser(world.server).larkLogin({
        code: await codeFor('外人', { name: '外人', canUseApp: false }),
      });
      expect(outside.body.msg).toBe(SignInMessages.larkUserBlocked);
    });

    it('says our Lark app is misconfigured when Lark rejects its secret', async () => {
      world.lark.app.appSecret = 'rotated-in-the-console';
      try {
        const res = await new TestBrowser(world.server).larkLogin({ code: await codeFor('无辜') });
        expect(res.body.msg).toBe(SignInMessages.larkMisconfigured);
        const token = world.lark.requests.find((r) => r.route === 'oauth.token');
        expect(token?.status).toBe(400);
      } finally {
        world.lark.app.appSecret = world.server.built.core.lark?.config.appSecret ?? '';
      }
    });
  });
});
