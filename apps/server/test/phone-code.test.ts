import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages, PHONE_CODE_LIFETIME_MS, PHONE_CODE_RESEND_MS } from '@release/contract';
import { sha256Hex } from '../src/lib/crypto.ts';
import { createWebhookSmsProvider } from '../src/sms/sms-provider.ts';
import { testDialects } from './helpers/dialects.ts';
import { startSmsGateway } from './helpers/sms-gateway.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

describe.each(testDialects())('phone codes through a real SMS gateway on %s', (dialect) => {
  let server: TestServer;
  let gateway: Awaited<ReturnType<typeof startSmsGateway>>;
  const phone = '13800138000';

  beforeAll(async () => {
    gateway = await startSmsGateway();
    server = await startTestServer(dialect, { sms: createWebhookSmsProvider(gateway.url) });
    await server.createUser({ username: 'tester', password: 'tester-pass', roleLevel: 20, phone });
    await server.createUser({ username: 'nophone', password: 'nophone-pass', roleLevel: 20 });
  });
  afterAll(async () => {
    await server?.close();
    await gateway?.close();
  });

  it('tells the login page that SMS is configured and codes are asked for automatically', async () => {
    const res = await server.request('GET', '/api/login_options');
    expect(res.body.data).toEqual({
      larkEnabled: false,
      larkAppId: null,
      wecomEnabled: false,
      phoneCodeMode: 'auto',
      smsConfigured: true,
    });
  });

  it('asks a user with a phone for a code, then signs in with the code that reached the phone', async () => {
    const withoutCode = await server.request('POST', '/api/user/login', {
      body: { username: 'tester', password: sha256Hex('tester-pass') },
    });
    expect(withoutCode.status).toBe(400);
    expect(withoutCode.body.msg).toBe(Messages.phoneCodeRequired);

    const sent = await server.request<{ maskedPhone: string }>('POST', '/api/send_phone_code', {
      body: { username: 'tester', scene: 'login' },
    });
    expect(sent.body.code).toBe(200);
    expect(sent.body.data.maskedPhone).toBe('*******8000');
    const code = gateway.lastCodeFor(phone);

    const wrong = await server.request('POST', '/api/user/login', {
      body: {
        username: 'tester',
        password: sha256Hex('tester-pass'),
        phoneCode: code === '000000' ? '111111' : '000000',
      },
    });
    expect(wrong.body.msg).toBe(Messages.phoneCodeWrong);
    await expect(server.login('tester', 'tester-pass', code)).resolves.toBeTruthy();
    // A code works once.
    const reused = await server.request('POST', '/api/user/login', {
      body: { username: 'tester', password: sha256Hex('tester-pass'), phoneCode: code },
    });
    expect(reused.body.msg).toBe(Messages.phoneCodeWrong);
  });

  it('refuses to resend within a minute and lets a code expire after five', async () => {
    server.clock.advance(PHONE_CODE_RESEND_MS);
    expect((await server.request('POST', '/api/send_phone_code', { body: { username: 'tester' } })).body.code).toBe(
      200,
    );
    const again = await server.request('POST', '/api/send_phone_code', { body: { username: 'tester' } });
    expect(again.status).toBe(429);
    expect(again.body.msg).toBe(Messages.phoneCodeTooSoon);
    const code = gateway.lastCodeFor(phone);
    server.clock.advance(PHONE_CODE_LIFETIME_MS + 1);
    const late = await server.request('POST', '/api/user/login', {
      body: { username: 'tester', password: sha256Hex('tester-pass'), phoneCode: code },
    });
    expect(late.body.msg).toBe(Messages.phoneCodeWrong);
  });

  it('does not ask users without a phone, and never when the admin turns codes off', async () => {
    await expect(server.login('nophone', 'nophone-pass')).resolves.toBeTruthy();
    const admin = await server.adminToken();
    const set = await server.request('POST', '/api/system_setting', { token: admin, body: { phoneCodeMode: 'never' } });
    expect(set.body.data).toEqual({ phoneCodeMode: 'never' });
    await expect(server.login('tester', 'tester-pass')).resolves.toBeTruthy();
    await server.request('POST', '/api/system_setting', { token: admin, body: { phoneCodeMode: 'auto' } });
  });

  it('resets a forgotten password with a phone code and ends the old sessions', async () => {
    server.clock.advance(PHONE_CODE_RESEND_MS);
    await server.request('POST', '/api/system_setting', {
      token: await server.adminToken(),
      body: { phoneCodeMode: 'never' },
    });
    const oldSession = await server.login('tester', 'tester-pass');
    const sent = await server.request('POST', '/api/send_phone_code', {
      body: { username: 'tester', scene: 'forget_password' },
    });
    expect(sent.body.code).toBe(200);
    const code = gateway.lastCodeFor(phone);
    const reset = await server.request('POST', '/api/forget_password', {
      body: { username: 'tester', phoneCode: code, password: sha256Hex('brand-new-pass') },
    });
    expect(reset.body.code).toBe(200);
    expect((await server.request('GET', '/api/user/me', { token: oldSession })).status).toBe(401);
    await expect(server.login('tester', 'brand-new-pass')).resolves.toBeTruthy();
    const oldPassword = await server.request('POST', '/api/user/login', {
      body: { username: 'tester', password: sha256Hex('tester-pass') },
    });
    expect(oldPassword.body.msg).toBe(Messages.wrongCredentials);
    await server.request('POST', '/api/system_setting', {
      token: await server.adminToken(),
      body: { phoneCodeMode: 'auto' },
    });
  });

  it('answers unknown users and users without a phone alike', async () => {
    const unknown = await server.request('POST', '/api/send_phone_code', { body: { username: 'ghost' } });
    const noPhone = await server.request('POST', '/api/send_phone_code', { body: { username: 'nophone' } });
    expect(unknown.body.msg).toBe(Messages.noPhone);
    expect(noPhone.body).toEqual(unknown.body);
  });

  /** `count` six-digit codes that are all different from `code`. */
  const otherCodes = (code: string, count: number) =>
    Array.from({ length: count }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
  const tally = (answers: Array<{ status: number; body: { msg: string } }>) => ({
    wrong: answers.filter((a) => a.status === 400 && a.body.msg === Messages.phoneCodeWrong).length,
    spent: answers.filter((a) => a.status === 429 && a.body.msg === Messages.phoneCodeTooManyTries).length,
  });

  it('checks exactly five of twenty parallel wrong codes; then even the right code is refused until a new one is sent', async () => {
    server.clock.advance(PHONE_CODE_RESEND_MS);
    await server.request('POST', '/api/send_phone_code', { body: { username: 'tester', scene: 'forget_password' } });
    const code = gateway.lastCodeFor(phone);
    const reset = (phoneCode: string) =>
      server.request('POST', '/api/forget_password', {
        body: { username: 'tester', phoneCode, password: sha256Hex('guessed-pass') },
      });
    const answers = await Promise.all(otherCodes(code, 20).map(reset));
    expect(tally(answers)).toEqual({ wrong: 5, spent: 15 });
    const right = await reset(code);
    expect(right.status).toBe(429);
    expect(right.body.msg).toBe('验证码错误次数过多，请重新获取验证码');

    server.clock.advance(PHONE_CODE_RESEND_MS);
    await server.request('POST', '/api/send_phone_code', { body: { username: 'tester', scene: 'forget_password' } });
    const fresh = await server.request('POST', '/api/forget_password', {
      body: { username: 'tester', phoneCode: gateway.lastCodeFor(phone), password: sha256Hex('after-limit-pass') },
    });
    expect(fresh.body.code).toBe(200);
  });

  it('at sign-in, five of eight parallel wrong codes are checked, and each counts as a failed sign-in of that user from that address', async () => {
    server.clock.advance(PHONE_CODE_RESEND_MS);
    await server.request('POST', '/api/send_phone_code', { body: { username: 'tester', scene: 'login' } });
    const code = gateway.lastCodeFor(phone);
    const signIn = (phoneCode: string) =>
      server.request('POST', '/api/user/login', {
        body: { username: 'tester', password: sha256Hex('after-limit-pass'), phoneCode },
      });
    expect(tally(await Promise.all(otherCodes(code, 8).map(signIn)))).toEqual({ wrong: 5, spent: 3 });

    server.clock.advance(PHONE_CODE_RESEND_MS);
    await server.request('POST', '/api/send_phone_code', { body: { username: 'tester', scene: 'login' } });
    const fresh = gateway.lastCodeFor(phone);
    // Eight of the ten failed sign-ins this address may make are used: two more wrong codes, then 429 even for the right one.
    expect((await signIn(otherCodes(fresh, 1)[0] ?? '')).body.msg).toBe(Messages.phoneCodeWrong);
    expect((await signIn(otherCodes(fresh, 2)[1] ?? '')).body.msg).toBe(Messages.phoneCodeWrong);
    expect((await signIn(fresh)).body.msg).toBe(Messages.tooManyLoginFailures);
  });
});
