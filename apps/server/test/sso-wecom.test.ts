import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SignInMessages } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import {
  approve,
  startSignInWorld,
  TestBrowser,
  visit,
  type LoginData,
  type SignInWorld,
} from './helpers/sign-in-fakes.ts';
import { startTestServer } from './helpers/test-app.ts';

describe.each(testDialects())('WeCom sign-in on %s', (dialect) => {
  let world: SignInWorld;
  beforeAll(async () => {
    world = await startSignInWorld(dialect);
    world.wecom.addMember({ userId: 'zhaoliu', name: '赵六', department: [3] });
    world.wecom.addMember({ userId: 'guest', name: '外部联系人', external: true });
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(() => world.wecom.reset());

  async function wecomStart(browser: TestBrowser) {
    const res = await browser.api<{ url: string; state: string }>('GET', '/api/user/wecom_login_url');
    expect(res.body.code).toBe(200);
    return res.body.data;
  }

  async function signInAs(browser: TestBrowser, userId: string) {
    const { url, state } = await wecomStart(browser);
    world.wecom.setNextLogin(userId);
    const back = await approve(url);
    expect(back.state).toBe(state);
    return {
      ...back,
      login: await browser.api<LoginData>('POST', '/api/qywx_login', { body: { code: back.code, state: back.state } }),
    };
  }

  it('sends the browser to the WeCom login page of our app, which comes back to /login', async () => {
    const { url, state } = await wecomStart(new TestBrowser(world.server));
    const page = new URL(url);
    expect(`${page.origin}${page.pathname}`).toBe(`${world.wecom.url}/wwlogin/sso/login`);
    expect(Object.fromEntries(page.searchParams)).toMatchObject({
      login_type: 'CorpApp',
      appid: world.wecom.corp.corpId,
      agentid: world.wecom.corp.agentId,
      redirect_uri: `${world.server.url}/login`,
      state,
    });
    expect(state).toMatch(/^wecom_login\./);
  });

  it('creates an account for a member on first sign-in and finds it afterwards', async () => {
    const first = await signInAs(new TestBrowser(world.server), 'zhaoliu');
    expect(`${first.landing.origin}${first.landing.pathname}`).toBe(`${world.server.url}/login`);
    expect(first.login.body.code).toBe(200);
    expect(first.login.body.data).toMatchObject({ username: '赵六', roleLevel: 10 });
    const second = await signInAs(new TestBrowser(world.server), 'zhaoliu');
    expect(second.login.body.data.userId).toBe(first.login.body.data.userId);
    const identities = await world.server.request<Array<{ provider: string; displayName: string }>>(
      'GET',
      '/api/user/identities',
      { token: second.login.body.data.token },
    );
    expect(identities.body.data).toEqual([expect.objectContaining({ provider: 'wecom', displayName: '赵六' })]);
    // One access token served both sign-ins.
    expect(world.wecom.requests.filter((r) => r.route === 'gettoken')).toHaveLength(1);
  });

  it('refuses another browser, a reused state and a reused code', async () => {
    const browser = new TestBrowser(world.server);
    const { url } = await wecomStart(browser);
    world.wecom.setNextLogin('zhaoliu');
    const back = await approve(url);
    const stolen = await new TestBrowser(world.server).api('POST', '/api/qywx_login', {
      body: { code: back.code, state: back.state },
    });
    expect(stolen.body.msg).toBe(SignInMessages.stateInvalid);
    expect(
      (await browser.api('POST', '/api/qywx_login', { body: { code: back.code, state: back.state } })).body.code,
    ).toBe(200);
    expect(
      (await browser.api('POST', '/api/qywx_login', { body: { code: back.code, state: back.state } })).body.msg,
    ).toBe(SignInMessages.stateInvalid);
    const { state } = await wecomStart(browser);
    const reused = await browser.api('POST', '/api/qywx_login', { body: { code: back.code, state } });
    expect(reused.status).toBe(400);
    expect(reused.body.msg).toBe(SignInMessages.wecomCodeRejected);
  });

  it('refuses someone outside the corp', async () => {
    const outsider = await signInAs(new TestBrowser(world.server), 'guest');
    expect(outsider.login.status).toBe(400);
    expect(outsider.login.body.msg).toBe(SignInMessages.notMember);
  });

  it('fetches a new access token when WeCom expired the cached one', async () => {
    expect((await signInAs(new TestBrowser(world.server), 'zhaoliu')).login.body.code).toBe(200);
    const token = world.wecom.requests.filter((r) => r.route === 'user.get').at(-1)?.query.access_token ?? '';
    expect(world.wecom.expireToken(token)).toBe(true);
    const from = world.wecom.requests.length;
    expect((await signInAs(new TestBrowser(world.server), 'zhaoliu')).login.body.code).toBe(200);
    const calls = world.wecom.requests
      .slice(from)
      .filter((r) => r.route !== 'sso.login')
      .map((r) => [r.route, r.status === 200 && r.query.access_token === token]);
    expect(calls).toEqual([
      ['auth.getuserinfo', true],
      ['gettoken', false],
      ['auth.getuserinfo', false],
      ['user.get', false],
    ]);
  });

  it('says WeCom is unreachable when it fails', async () => {
    world.wecom.injectError({ route: 'gettoken', status: 200, body: { errcode: -1, errmsg: 'system busy' } });
    const busy = await signInAs(new TestBrowser(world.server), 'zhaoliu');
    expect(busy.login.status).toBe(500);
    expect(busy.login.body.msg).toBe(SignInMessages.wecomUnavailable);
  });

  it('refuses a redirect to an untrusted domain at the login page', async () => {
    const url = new URL((await wecomStart(new TestBrowser(world.server))).url);
    url.searchParams.set('redirect_uri', 'https://evil.example/login');
    const page = await visit(url.toString());
    expect(page.location).toBeNull();
    expect(page.text).toContain('50001');
  });
});

describe.each(testDialects())('WeCom sign-in when not configured on %s', (dialect) => {
  it('says so', async () => {
    const server = await startTestServer(dialect);
    try {
      const wecom = await server.request('GET', '/api/user/wecom_login_url');
      expect(wecom.status).toBe(400);
      expect(wecom.body.msg).toBe(SignInMessages.wecomOff);
      const lark = await server.request('GET', '/api/user/lark_login_url');
      expect(lark.body.msg).toBe(SignInMessages.larkOff);
    } finally {
      await server.close();
    }
  });
});
