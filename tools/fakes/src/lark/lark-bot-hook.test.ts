import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../shared/clock.ts';
import { call } from '../test-http.ts';
import { signBotRequest } from './lark-crypto.ts';
import { startLarkFake, type LarkFake } from './lark-fake.ts';

type BotAnswer = { code: number; msg: string; StatusCode?: number };

describe('Lark fake: custom bot webhook', () => {
  let fake: LarkFake;
  beforeEach(async () => {
    fake = await startLarkFake({ clock: new FakeClock({ frozen: true, start: Date.UTC(2026, 10, 23, 8) }) });
  });
  afterEach(() => fake.close());

  const hook = (token: string, body: unknown) =>
    call<BotAnswer>(`${fake.url}/open-apis/bot/v2/hook/${token}`, { body });
  const text = { msg_type: 'text', content: { text: '发布 1.2.3' } };

  it('records a text message and an interactive card', async () => {
    const bot = fake.addBot();
    expect((await hook(bot.token, text)).body).toMatchObject({ code: 0, StatusCode: 0, msg: 'success' });
    const card = {
      header: { title: { tag: 'plain_text', content: '版本 1.2.3' }, template: 'blue' },
      elements: [{ tag: 'div', text: { tag: 'lark_md', content: '**新提交**' } }],
    };
    expect((await hook(bot.token, { msg_type: 'interactive', card })).body.code).toBe(0);
    expect(fake.botMessages.map((m) => m.msgType)).toEqual(['text', 'interactive']);
    expect(fake.botMessages[1]?.card).toEqual(card);
  });

  it('checks the signature and its one-hour window (19021)', async () => {
    const bot = fake.addBot({ secret: 'bot-secret' });
    const now = Math.floor(fake.clock.now() / 1000);
    expect((await hook(bot.token, text)).body.code).toBe(19021);
    expect(
      (await hook(bot.token, { ...text, timestamp: String(now), sign: signBotRequest(now, 'other') })).body.code,
    ).toBe(19021);
    const stale = now - 3601;
    expect(
      (await hook(bot.token, { ...text, timestamp: String(stale), sign: signBotRequest(stale, 'bot-secret') })).body
        .code,
    ).toBe(19021);
    expect(
      (await hook(bot.token, { ...text, timestamp: String(now), sign: signBotRequest(now, 'bot-secret') })).body.code,
    ).toBe(0);
    expect(fake.state.botRejections.map((r) => r.code)).toEqual([19021, 19021, 19021]);
  });

  it('refuses an unknown token (19001), a missing keyword (19024) and a body over 20 KB (19036), all with HTTP 200', async () => {
    const unknown = await hook('no-such-token', text);
    expect([unknown.status, unknown.body.code]).toEqual([200, 19001]);
    const bot = fake.addBot({ keywords: ['发布'] });
    expect((await hook(bot.token, { msg_type: 'text', content: { text: 'hello' } })).body.code).toBe(19024);
    expect(
      (await hook(bot.token, { msg_type: 'text', content: { text: `发布${'x'.repeat(21 * 1024)}` } })).body.code,
    ).toBe(19036);
    expect(fake.botMessages).toEqual([]);
  });

  it('limits a bot to 5 messages a second with 11232', async () => {
    const bot = fake.addBot();
    for (let i = 0; i < 5; i++) expect((await hook(bot.token, text)).body.code).toBe(0);
    const limited = await hook(bot.token, text);
    expect([limited.status, limited.body.code]).toEqual([200, 11232]);
    await fake.advance(1000);
    expect((await hook(bot.token, text)).body.code).toBe(0);
  });
});
