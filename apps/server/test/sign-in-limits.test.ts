import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES, Messages } from '@release/contract';
import { loadConfig } from '../src/config.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { ADDRESS_MAX_ATTEMPTS } from '../src/modules/auth/attempt-limiter.ts';
import { requestFrom, startForwardingProxy, type ForwardingProxy } from './helpers/client-addresses.ts';
import { testDialects } from './helpers/dialects.ts';
import { ADMIN, startTestServer, type ApiResponse, type TestServer } from './helpers/test-app.ts';

const VICTIM = { username: 'victim', password: 'victim-pass-1' };

/** How the answers split: passwords checked and found wrong, refused with 429, and anything else (there should be none). */
function tally(answers: ApiResponse[]) {
  const wrong = answers.filter((a) => a.status === 400 && a.body.msg === Messages.wrongCredentials).length;
  const refused = answers.filter((a) => a.status === 429 && a.body.msg === Messages.tooManyLoginFailures).length;
  return { wrong, refused, other: answers.length - wrong - refused };
}

const signIn = (baseUrl: string, from: string, username: string, password: string, headers?: Record<string, string>) =>
  requestFrom(baseUrl, from, 'POST', '/api/user/login', { body: { username, password: sha256Hex(password) }, headers });

/** `count` wrong passwords for `username` sent at once, each from `from` (with `headers(i)` when given). */
const guessAtOnce = (
  baseUrl: string,
  from: string,
  count: number,
  username: (i: number) => string,
  headers?: (i: number) => Record<string, string>,
) =>
  Promise.all(Array.from({ length: count }, (_, i) => signIn(baseUrl, from, username(i), `wrong-${i}`, headers?.(i))));

describe.each(testDialects())('sign-in guesses sent in parallel on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    await server.createUser(VICTIM);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('checks exactly ten of thirty parallel wrong passwords for one user from one address; a right one from another address signs in', async () => {
    const answers = await guessAtOnce(server.url, '127.0.0.2', 30, () => VICTIM.username);
    expect(tally(answers)).toEqual({ wrong: LOGIN_MAX_FAILURES, refused: 30 - LOGIN_MAX_FAILURES, other: 0 });
    // The right password from that address waits too …
    const locked = await signIn(server.url, '127.0.0.2', VICTIM.username, VICTIM.password);
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toBe('密码错误次数过多，请15分钟后再试');
    // … but the account is not locked for an address that never guessed on it.
    const clean = await signIn(server.url, '127.0.0.3', VICTIM.username, VICTIM.password);
    expect(clean.body.code).toBe(200);
  });

  it('checks exactly fifty of sixty parallel guesses from one address across usernames; the admin signs in from any other address', async () => {
    const answers = await guessAtOnce(server.url, '127.0.0.4', 60, (i) => `ghost-${i}`);
    expect(tally(answers)).toEqual({ wrong: ADDRESS_MAX_ATTEMPTS, refused: 60 - ADDRESS_MAX_ATTEMPTS, other: 0 });
    expect((await signIn(server.url, '127.0.0.4', ADMIN.username, ADMIN.password)).status).toBe(429);
    expect((await signIn(server.url, '127.0.0.5', ADMIN.username, ADMIN.password)).body.code).toBe(200);
  });

  it('a right password starts the user’s count over: ten more parallel guesses are checked after it, not one', async () => {
    const first = await guessAtOnce(server.url, '127.0.0.6', LOGIN_MAX_FAILURES - 1, () => VICTIM.username);
    expect(tally(first)).toEqual({ wrong: LOGIN_MAX_FAILURES - 1, refused: 0, other: 0 });
    expect((await signIn(server.url, '127.0.0.6', VICTIM.username, VICTIM.password)).body.code).toBe(200);
    const after = await guessAtOnce(server.url, '127.0.0.6', 12, () => VICTIM.username);
    expect(tally(after)).toEqual({ wrong: LOGIN_MAX_FAILURES, refused: 2, other: 0 });
  });

  it('asking for the phone code after a right password is no failed guess', async () => {
    await server.createUser({ username: 'with-phone', password: 'phone-pass-1', phone: '13900139000' });
    const admin = await server.adminToken();
    await server.request('POST', '/api/system_setting', { token: admin, body: { phoneCodeMode: 'always' } });
    for (let i = 0; i < LOGIN_MAX_FAILURES + 2; i += 1) {
      expect((await signIn(server.url, '127.0.0.7', 'with-phone', 'phone-pass-1')).body.msg).toBe(
        Messages.phoneCodeRequired,
      );
    }
    await server.request('POST', '/api/system_setting', { token: admin, body: { phoneCodeMode: 'auto' } });
  });

  it('the user and the address may try again when the window is over', async () => {
    server.clock.advance(LOGIN_FAILURE_WINDOW_MS + 1);
    expect((await signIn(server.url, '127.0.0.2', VICTIM.username, VICTIM.password)).body.code).toBe(200);
    expect((await signIn(server.url, '127.0.0.4', ADMIN.username, ADMIN.password)).body.code).toBe(200);
  });
});

// The server behind a reverse proxy at 127.0.0.20 that appends the address of whoever connected to it to the
// X-Forwarded-For they sent. Guessers forge that header with a new address on every request.
describe.each(testDialects())('TRUST_PROXY: whose X-Forwarded-For counts, on %s', (dialect) => {
  const PROXY = '127.0.0.20';
  const forged = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` });

  describe('a hop count (TRUST_PROXY=1)', () => {
    let server: TestServer;
    let proxy: ForwardingProxy;
    beforeAll(async () => {
      server = await startTestServer(dialect, { trustProxy: loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY });
      await server.createUser(VICTIM);
      proxy = await startForwardingProxy(server.url, PROXY);
    });
    afterAll(async () => {
      await proxy?.close();
      await server?.close();
    });

    it('counts a client behind the proxy by the address the proxy saw, whatever it forges; another client behind the proxy signs in', async () => {
      const answers = await guessAtOnce(proxy.url, '127.0.0.21', 15, () => VICTIM.username, forged);
      expect(tally(answers)).toEqual({ wrong: LOGIN_MAX_FAILURES, refused: 15 - LOGIN_MAX_FAILURES, other: 0 });
      expect((await signIn(proxy.url, '127.0.0.21', VICTIM.username, VICTIM.password, forged(99))).status).toBe(429);
      expect((await signIn(proxy.url, '127.0.0.22', VICTIM.username, VICTIM.password)).body.code).toBe(200);
    });
  });

  describe('proxy addresses (TRUST_PROXY=10.0.0.0/8,127.0.0.20)', () => {
    let server: TestServer;
    let proxy: ForwardingProxy;
    beforeAll(async () => {
      server = await startTestServer(dialect, {
        trustProxy: loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.20' }).TRUST_PROXY,
      });
      await server.createUser(VICTIM);
      proxy = await startForwardingProxy(server.url, PROXY);
    });
    afterAll(async () => {
      await proxy?.close();
      await server?.close();
    });

    it('ignores X-Forwarded-For from a peer that is not the proxy: forging a new address each time does not escape the limit', async () => {
      const answers = await guessAtOnce(server.url, '127.0.0.30', 15, () => VICTIM.username, forged);
      expect(tally(answers)).toEqual({ wrong: LOGIN_MAX_FAILURES, refused: 15 - LOGIN_MAX_FAILURES, other: 0 });
    });

    it('honours the proxy’s entry: a guesser behind it is locked out, not the other clients behind it', async () => {
      const answers = await guessAtOnce(proxy.url, '127.0.0.31', 15, () => VICTIM.username, forged);
      expect(tally(answers)).toEqual({ wrong: LOGIN_MAX_FAILURES, refused: 15 - LOGIN_MAX_FAILURES, other: 0 });
      expect((await signIn(proxy.url, '127.0.0.31', VICTIM.username, VICTIM.password)).status).toBe(429);
      expect((await signIn(proxy.url, '127.0.0.32', VICTIM.username, VICTIM.password)).body.code).toBe(200);
    });
  });
});
