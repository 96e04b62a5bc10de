import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SignInMessages } from '@release/contract';
import { sha256Hex } from '../src/lib/crypto.ts';
import { testDialects } from './helpers/dialects.ts';
import { approve, startSignInWorld, TestBrowser, visit, type SignInWorld } from './helpers/sign-in-fakes.ts';

describe.each(testDialects())('one-click Lark sign-in in a browser on %s', (dialect) => {
  let world: SignInWorld;
  beforeAll(async () => {
    world = await startSignInWorld(dialect);
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(() => world.lark.reset());

  /** lark_login_url → the fake's authorize page approved as `openId` → back at /callback/feishu. */
  async function signInAs(browser: TestBrowser, openId: string) {
    const { url, state } = await browser.larkLoginUrl();
    world.lark.setNextLogin({ openId });
    const back = await approve(url);
    expect(back.state).toBe(state);
    return { ...back, login: await browser.larkLogin({ code: back.code, state: back.state }) };
  }

  it('sends the browser to the authorize page with our app, the callback and a success_login state', async () => {
    const { url, state, expiresAt } = await new TestBrowser(world.server).larkLoginUrl();
    const authorize = new URL(url);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${world.lark.url}/open-apis/authen/v1/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: world.lark.app.appId,
      response_type: 'code',
      redirect_uri: `${world.server.url}/callback/feishu`,
      state,
    });
    expect(state).toMatch(/^success_login\.[A-Za-z0-9_-]{32}$/);
    expect(expiresAt).toBe(world.server.clock.now() + 10 * 60_000);
  });

  it('creates an account with the lowest non-admin role for a new Lark user and signs it in', async () => {
    const user = world.lark.addUser({ name: '新同事' });
    const browser = new TestBrowser(world.server);
    const { landing, login } = await signInAs(browser, user.openId);
    expect(`${landing.origin}${landing.pathname}`).toBe(`${world.server.url}/callback/feishu`);
    expect(login.body.code).toBe(200);
    expect(login.body.data).toMatchObject({ username: '新同事', roleLevel: 10 });
    const me = await browser.api<{ username: string; roleName: string }>('GET', '/api/user/me', {
      token: login.body.data.token,
    });
    expect(me.body.data).toMatchObject({ username: '新同事', roleName: '编辑' });
    // The next sign-in finds the linked account instead of making another.
    const again = await signInAs(new TestBrowser(world.server), user.openId);
    expect(again.login.body.data.userId).toBe(login.body.data.userId);
    const identities = await browser.api<Array<{ provider: string; displayName: string }>>(
      'GET',
      '/api/user/identities',
      { token: login.body.data.token },
    );
    expect(identities.body.data).toEqual([expect.objectContaining({ provider: 'lark', displayName: '新同事' })]);
  });

  it('signs a Lark user into the account an admin prepared with their phone number', async () => {
    const prepared = await world.server.createUser({ username: 'tester-zhang', roleLevel: 20, phone: '13800000101' });
    const user = world.lark.addUser({ name: '张测', mobile: '+8613800000101' });
    const { login } = await signInAs(new TestBrowser(world.server), user.openId);
    expect(login.body.data).toMatchObject({ userId: prepared.userId, username: 'tester-zhang', roleLevel: 20 });
  });

  it('does not guess when two accounts share the Lark mobile: a new account is made', async () => {
    await world.server.createUser({ username: 'twin-a', roleLevel: 20, phone: '13800000202' });
    await world.server.createUser({ username: 'twin-b', roleLevel: 30, phone: '13800000202' });
    const user = world.lark.addUser({ name: '双胞胎', mobile: '+8613800000202' });
    const { login } = await signInAs(new TestBrowser(world.server), user.openId);
    expect(login.body.data).toMatchObject({ username: '双胞胎', roleLevel: 10 });
  });

  it('refuses a code brought back by a browser that did not start the sign-in', async () => {
    const user = world.lark.addUser({ name: '路人甲' });
    const victim = new TestBrowser(world.server);
    const { url } = await victim.larkLoginUrl();
    world.lark.setNextLogin({ openId: user.openId });
    const back = await approve(url);
    const attacker = new TestBrowser(world.server);
    const stolen = await attacker.larkLogin({ code: back.code, state: back.state });
    expect(stolen.status).toBe(400);
    expect(stolen.body.msg).toBe(SignInMessages.stateInvalid);
  });

  it('refuses a forged state, and a state used once already', async () => {
    const user = world.lark.addUser({ name: '路人乙' });
    const browser = new TestBrowser(world.server);
    await browser.larkLoginUrl();
    const forged = await browser.larkLogin({
      code: world.lark.mintCode({ openId: user.openId }),
      state: 'success_login.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(forged.body.msg).toBe(SignInMessages.stateInvalid);
    const first = await signInAs(browser, user.openId);
    expect(first.login.body.code).toBe(200);
    const replay = await browser.larkLogin({ code: first.code, state: first.state });
    expect(replay.status).toBe(400);
    expect(replay.body.msg).toBe(SignInMessages.stateInvalid);
  });

  it('refuses a state that outlived its 10 minutes', async () => {
    const user = world.lark.addUser({ name: '慢吞吞' });
    const browser = new TestBrowser(world.server);
    const { url } = await browser.larkLoginUrl();
    world.lark.setNextLogin({ openId: user.openId });
    const back = await approve(url);
    world.server.clock.advance(10 * 60_000 + 1);
    expect((await browser.larkLogin({ code: back.code, state: back.state })).body.msg).toBe(
      SignInMessages.stateInvalid,
    );
  });

  it('accepts a Lark code once: a reused code with a fresh state is refused by Lark and explained', async () => {
    const user = world.lark.addUser({ name: '重放者' });
    const browser = new TestBrowser(world.server);
    const first = await signInAs(browser, user.openId);
    expect(first.login.body.code).toBe(200);
    const { state } = await browser.larkLoginUrl();
    const reused = await browser.larkLogin({ code: first.code, state });
    expect(reused.status).toBe(400);
    expect(reused.body.msg).toBe(SignInMessages.codeRejected);
    const refusals = world.lark.requests.filter((r) => r.route === 'oauth.token' && r.status === 400);
    expect(refusals).toHaveLength(1);
  });

  it('comes back with error=access_denied when the user declines; the state is spent', async () => {
    const browser = new TestBrowser(world.server);
    const { url, state } = await browser.larkLoginUrl();
    world.lark.setNextLogin({ deny: true });
    const back = await visit(url);
    expect(back.location?.searchParams.get('error')).toBe('access_denied');
    expect(back.location?.searchParams.get('state')).toBe(state);
    expect(back.location?.searchParams.has('code')).toBe(false);
    expect(
      (await browser.api('POST', '/api/user/sign_in_denied', { body: { state, error: 'access_denied' } })).body.code,
    ).toBe(200);
    const user = world.lark.addUser({ name: '反悔者' });
    const late = await browser.larkLogin({
      code: world.lark.mintCode({ openId: user.openId, redirectUri: `${world.server.url}/callback/feishu` }),
      state,
    });
    expect(late.body.msg).toBe(SignInMessages.stateInvalid);
  });

  it('binds a Lark account to the signed-in user, lists it, and unbinds it', async () => {
    const me = await world.server.createUser({ username: 'binder', roleLevel: 30 });
    const user = world.lark.addUser({ name: '绑定者' });
    const browser = new TestBrowser(world.server);
    const anonymous = await browser.api('GET', '/api/user/lark_login_url?mode=bind_login');
    expect(anonymous.status).toBe(401);
    const { url, state } = await browser.larkLoginUrl('?mode=bind_login', me.token);
    expect(state).toMatch(/^bind_login\./);
    world.lark.setNextLogin({ openId: user.openId });
    const back = await approve(url);
    const bound = await browser.larkLogin({ code: back.code, state: back.state });
    expect(bound.body.data).toMatchObject({ userId: me.userId, username: 'binder' });
    const listed = await browser.api<Array<{ provider: string }>>('GET', '/api/user/identities', { token: me.token });
    expect(listed.body.data.map((i) => i.provider)).toEqual(['lark']);
    // From now on a one-click sign-in of that Lark user is this account.
    expect((await signInAs(new TestBrowser(world.server), user.openId)).login.body.data.userId).toBe(me.userId);
    expect((await browser.api('DELETE', '/api/user/identity?provider=lark', { token: me.token })).body.code).toBe(200);
    expect((await browser.api<unknown[]>('GET', '/api/user/identities', { token: me.token })).body.data).toEqual([]);
  });

  it('refuses to bind a Lark account that another user holds', async () => {
    const user = world.lark.addUser({ name: '抢手' });
    expect((await signInAs(new TestBrowser(world.server), user.openId)).login.body.code).toBe(200);
    const other = await world.server.createUser({ username: 'latecomer', roleLevel: 30 });
    const browser = new TestBrowser(world.server);
    const { url } = await browser.larkLoginUrl('?mode=bind_login', other.token);
    world.lark.setNextLogin({ openId: user.openId });
    const back = await approve(url);
    const taken = await browser.larkLogin({ code: back.code, state: back.state });
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe(SignInMessages.identityTaken);
  });

  /** What an admin does in 用户管理: sets the account's password. */
  async function givePassword(userId: number, username: string, password: string) {
    const admin = await world.server.adminToken();
    const row = await world.server.db
      .selectFrom('users')
      .select('role_id')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const saved = await world.server.request('POST', '/api/user', {
      token: admin,
      body: { userId, username, roleId: row.role_id, password: sha256Hex(password) },
    });
    expect(saved.body.code).toBe(200);
  }

  it("lets only an admin unbind someone else's account", async () => {
    const user = world.lark.addUser({ name: '被解绑' });
    const login = (await signInAs(new TestBrowser(world.server), user.openId)).login.body.data;
    const other = await world.server.createUser({ username: 'nosy', roleLevel: 30 });
    const denied = await world.server.request('DELETE', `/api/user/identity?provider=lark&userId=${login.userId}`, {
      token: other.token,
    });
    expect(denied.status).toBe(403);
    const admin = await world.server.adminToken();
    await givePassword(login.userId, login.username, 'a-new-pass-1');
    expect(
      (
        await world.server.request('DELETE', `/api/user/identity?provider=lark&userId=${login.userId}`, {
          token: admin,
        })
      ).body.code,
    ).toBe(200);
    // (A new password ended the user's other sessions.)
    const again = await world.server.login(login.username, 'a-new-pass-1');
    expect((await world.server.request<unknown[]>('GET', '/api/user/identities', { token: again })).body.data).toEqual(
      [],
    );
  });

  it('keeps the only way into an account made by Lark until it has a password', async () => {
    const user = world.lark.addUser({ name: '唯一入口' });
    const login = (await signInAs(new TestBrowser(world.server), user.openId)).login.body.data;
    // The account has no password: nothing typed on the login page opens it.
    await expect(world.server.login(login.username, '')).rejects.toThrow(/login .* failed/);
    const refused = await world.server.request('DELETE', '/api/user/identity?provider=lark', { token: login.token });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(SignInMessages.lastSignInMethod);
    expect(
      (await world.server.request<unknown[]>('GET', '/api/user/identities', { token: login.token })).body.data,
    ).toHaveLength(1);

    await givePassword(login.userId, login.username, 'a-new-pass-1');
    const withPassword = await world.server.login(login.username, 'a-new-pass-1');
    expect(
      (await world.server.request('DELETE', '/api/user/identity?provider=lark', { token: withPassword })).body.code,
    ).toBe(200);
  });
});
