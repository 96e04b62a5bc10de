import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstallMessages, LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES } from '@release/contract';
import { ADDRESS_MAX_ATTEMPTS } from '../src/modules/auth/attempt-limiter.ts';
import { requestFrom } from './helpers/client-addresses.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/test-app.ts';

const PASSWORD = '246810';

/** How the answers split: passwords compared and found wrong, refused with 429 (saying 15 minutes), and anything else. */
function tally(answers: ApiResponse[]) {
  const wrong = answers.filter((a) => a.status === 400 && a.body.msg === InstallMessages.passwordWrong).length;
  const refused = answers.filter((a) => a.status === 429 && a.body.msg === InstallMessages.tooManyTries(15)).length;
  return { wrong, refused, other: answers.length - wrong - refused };
}

describe.each(testDialects())('install password guesses sent in parallel on %s', (dialect) => {
  let server: TestServer;
  /** Seven apps with the same install password: gate0 … gate6. */
  const paths = Array.from({ length: 7 }, (_, i) => `gate${i}`);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const admin = await server.adminToken();
    for (const path of paths) {
      const created = await server.request('POST', '/api/app', {
        token: admin,
        body: { appName: `应用${path}`, appType: 'native', password: PASSWORD, path },
      });
      expect(created.body.code).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const open = (from: string, path: string, password: string) =>
    requestFrom(server.url, from, 'GET', `/api/app_version?url=${path}&password=${password}`);

  it('compares exactly ten of thirty parallel wrong passwords for one app from one address; the right one from another address opens the page', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => open('127.0.0.2', 'gate0', String(900000 + i))),
    );
    expect(tally(answers)).toEqual({ wrong: LOGIN_MAX_FAILURES, refused: 30 - LOGIN_MAX_FAILURES, other: 0 });
    const locked = await open('127.0.0.2', 'gate0', PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toBe('密码错误次数过多，请 15 分钟后再试');
    expect((await open('127.0.0.3', 'gate0', PASSWORD)).body.code).toBe(200);
    // The same address may still open another app.
    expect((await open('127.0.0.2', 'gate1', PASSWORD)).body.code).toBe(200);
  });

  it('compares exactly fifty of sixty parallel guesses from one address across six apps; then that address waits for every app, others do not', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => open('127.0.0.4', paths[i % 6] ?? '', String(900000 + i))),
    );
    expect(tally(answers)).toEqual({ wrong: ADDRESS_MAX_ATTEMPTS, refused: 60 - ADDRESS_MAX_ATTEMPTS, other: 0 });
    expect((await open('127.0.0.4', 'gate6', PASSWORD)).status).toBe(429);
    expect((await open('127.0.0.5', 'gate6', PASSWORD)).body.code).toBe(200);
  });

  it('the message counts down the minutes left, and the address may try again when the window is over', async () => {
    server.clock.advance(6 * 60_000 + 1);
    expect((await open('127.0.0.2', 'gate0', PASSWORD)).body.msg).toBe(InstallMessages.tooManyTries(9));
    server.clock.advance(LOGIN_FAILURE_WINDOW_MS - 6 * 60_000);
    expect((await open('127.0.0.2', 'gate0', PASSWORD)).body.code).toBe(200);
    expect((await open('127.0.0.4', 'gate6', PASSWORD)).body.code).toBe(200);
  });
});
