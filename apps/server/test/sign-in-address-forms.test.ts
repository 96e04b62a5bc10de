import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_MAX_FAILURES, Messages } from '@release/contract';
import { loadConfig } from '../src/config.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { requestFrom } from './helpers/client-addresses.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/test-app.ts';

const VICTIM = { username: 'victim', password: 'victim-pass-1' };
/** The trusted reverse proxy: the address it writes into X-Forwarded-For is the client's. */
const PROXY = '127.0.0.40';

const signInAs = (server: TestServer, from: string, username: string, password: string, client?: string) =>
  requestFrom(server.url, from, 'POST', '/api/user/login', {
    body: { username, password: sha256Hex(password) },
    headers: client ? { 'x-forwarded-for': client } : undefined,
  });

function tally(answers: ApiResponse[]) {
  const wrong = answers.filter((a) => a.status === 400 && a.body.msg === Messages.wrongCredentials).length;
  const refused = answers.filter((a) => a.status === 429).length;
  return { wrong, refused, other: answers.length - wrong - refused };
}

// Review of issue 15: what counts as "one address" for the guess limits.
describe.each(testDialects())('guess limits and the forms of a client address, on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { trustProxy: loadConfig({ TRUST_PROXY: PROXY }).TRUST_PROXY });
    await server.createUser(VICTIM);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('counts an IPv6 client by its /64: a new address of the same network for every guess does not escape the limit', async () => {
    // One household or host has a whole /64; the proxy reports each guess from another address in it.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        signInAs(server, PROXY, VICTIM.username, `wrong-${i}`, `2001:db8:1:2:${(i + 1).toString(16)}::7`),
      ),
    );
    expect(tally(answers)).toEqual({ wrong: LOGIN_MAX_FAILURES, refused: 30 - LOGIN_MAX_FAILURES, other: 0 });
    expect((await signInAs(server, PROXY, VICTIM.username, VICTIM.password, '2001:db8:1:2:ffff::1')).status).toBe(429);
    // Another network signs in.
    expect((await signInAs(server, PROXY, VICTIM.username, VICTIM.password, '2001:db8:1:3::1')).body.code).toBe(200);
  });

  it('counts one IPv4 client as one whatever the proxy writes: a port, or the IPv4-mapped IPv6 form', async () => {
    const forms = (i: number) =>
      [`198.51.100.7:${40_000 + i}`, '::ffff:198.51.100.7', `[::ffff:198.51.100.7]:${50_000 + i}`, '198.51.100.7'][
        i % 4
      ] as string;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signInAs(server, PROXY, VICTIM.username, `wrong-${i}`, forms(i))),
    );
    expect(tally(answers)).toEqual({ wrong: LOGIN_MAX_FAILURES, refused: 20 - LOGIN_MAX_FAILURES, other: 0 });
    expect((await signInAs(server, PROXY, VICTIM.username, VICTIM.password, '198.51.100.8')).body.code).toBe(200);
  });

  it('counts every spelling of a username that signs in to the account as that account', async () => {
    const answers = await Promise.all(
      Array.from({ length: LOGIN_MAX_FAILURES }, (_, i) =>
        signInAs(server, '127.0.0.41', VICTIM.username, `wrong-${i}`),
      ),
    );
    expect(tally(answers)).toEqual({ wrong: LOGIN_MAX_FAILURES, refused: 0, other: 0 });
    // 'İ' (U+0130) lowers to 'i' in PostgreSQL's lower() but to 'i̇' (two characters) in JavaScript: before the
    // fix PostgreSQL signed this in as victim on a fresh counter, after ten refused guesses.
    for (const spelling of ['VICTIM', 'Victim', 'vİctim']) {
      const answer = await signInAs(server, '127.0.0.41', spelling, VICTIM.password);
      expect(answer.body.code, spelling).not.toBe(200);
    }
    expect((await signInAs(server, '127.0.0.41', 'VICTIM', VICTIM.password)).status).toBe(429);
    // A name of no account that lowering makes longer than the counter's column is still counted, not a 500.
    const long = await signInAs(server, '127.0.0.42', 'İ'.repeat(64), 'wrong');
    expect({ status: long.status, msg: long.body.msg }).toEqual({ status: 400, msg: Messages.wrongCredentials });
  });
});
