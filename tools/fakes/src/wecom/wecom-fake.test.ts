import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../shared/clock.ts';
import { buildMultipart } from '../shared/multipart.ts';
import { call } from '../test-http.ts';
import { startWecomFake, type WecomFake } from './wecom-fake.ts';

type Answer = { errcode: number; errmsg: string; [key: string]: unknown };

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('WeCom fake', () => {
  let fake: WecomFake;
  const get = (path: string, query: Record<string, string>) =>
    call<Answer>(`${fake.url}${path}?${new URLSearchParams(query)}`);
  const token = async () =>
    (await get('/cgi-bin/gettoken', { corpid: fake.corp.corpId, corpsecret: fake.corp.secret })).body;

  beforeEach(async () => {
    fake = await startWecomFake({
      clock: new FakeClock({ frozen: true }),
      members: [{ userId: 'zhangsan', name: '张三', department: [2] }],
    });
  });
  afterEach(() => fake.close());

  describe('gettoken', () => {
    it('issues a 7200 s token and returns the same one while it lives', async () => {
      const first = await token();
      expect(first).toMatchObject({ errcode: 0, errmsg: 'ok', expires_in: 7200 });
      await fake.advance(1000_000);
      const second = await token();
      expect(second.access_token).toBe(first.access_token);
      expect(second.expires_in).toBe(6200);
      await fake.advance(6200_000);
      expect((await token()).access_token).not.toBe(first.access_token);
    });

    it('refuses a bad secret with 40001 and an unknown corp with 40013', async () => {
      expect((await get('/cgi-bin/gettoken', { corpid: fake.corp.corpId, corpsecret: 'wrong' })).body.errcode).toBe(
        40001,
      );
      expect((await get('/cgi-bin/gettoken', { corpid: 'wwunknown', corpsecret: fake.corp.secret })).body.errcode).toBe(
        40013,
      );
    });
  });

  describe('SSO', () => {
    it('redirects the login page with a single-use code that names the member', async () => {
      fake.setNextLogin('zhangsan');
      const redirectUri = 'http://127.0.0.1:5173/api/qywx_login';
      const login = await call(
        `${fake.url}/wwlogin/sso/login?${new URLSearchParams({ login_type: 'CorpApp', appid: fake.corp.corpId, agentid: fake.corp.agentId, redirect_uri: redirectUri, state: 's1' })}`,
      );
      expect(login.status).toBe(302);
      const target = new URL(login.headers.get('location') ?? '');
      expect(`${target.origin}${target.pathname}`).toBe(redirectUri);
      expect(target.searchParams.get('state')).toBe('s1');
      const code = target.searchParams.get('code') ?? '';
      const access = String((await token()).access_token);
      expect((await get('/cgi-bin/auth/getuserinfo', { access_token: access, code })).body).toMatchObject({
        errcode: 0,
        userid: 'zhangsan',
      });
      expect((await get('/cgi-bin/auth/getuserinfo', { access_token: access, code })).body.errcode).toBe(40029);
      const user = await get('/cgi-bin/user/get', { access_token: access, userid: 'zhangsan' });
      expect(user.body).toMatchObject({ errcode: 0, userid: 'zhangsan', name: '张三', department: [2] });
      expect(user.body).not.toHaveProperty('mobile');
    });

    it('refuses a redirect outside the trusted domains with 50001', async () => {
      const login = await call(
        `${fake.url}/wwlogin/sso/login?${new URLSearchParams({ login_type: 'CorpApp', appid: fake.corp.corpId, agentid: fake.corp.agentId, redirect_uri: 'https://evil.example/cb', state: 's' })}`,
      );
      expect(login.status).toBe(400);
      expect(String(login.body)).toContain('50001');
    });

    it('answers an openid for a non-member and 40029 for an expired code', async () => {
      fake.addMember({ userId: 'guest', name: '访客', external: true });
      const access = String((await token()).access_token);
      const guest = await get('/cgi-bin/auth/getuserinfo', { access_token: access, code: fake.mintCode('guest') });
      expect(guest.body.errcode).toBe(0);
      expect(guest.body).toHaveProperty('openid');
      expect(guest.body).not.toHaveProperty('userid');
      const code = fake.mintCode('zhangsan');
      await fake.advance(5 * 60_000);
      expect((await get('/cgi-bin/auth/getuserinfo', { access_token: access, code })).body.errcode).toBe(40029);
    });

    it('answers 42001 for an expired token, 40014 for a revoked one, 41001 without one', async () => {
      const access = String((await token()).access_token);
      fake.expireToken(access);
      expect((await get('/cgi-bin/user/get', { access_token: access, userid: 'zhangsan' })).body.errcode).toBe(42001);
      const next = String((await token()).access_token);
      fake.revokeToken(next);
      expect((await get('/cgi-bin/user/get', { access_token: next, userid: 'zhangsan' })).body.errcode).toBe(40014);
      expect((await get('/cgi-bin/user/get', { userid: 'zhangsan' })).body.errcode).toBe(41001);
    });
  });

  describe('group robot', () => {
    const send = (key: string, body: unknown) => call<Answer>(`${fake.url}/cgi-bin/webhook/send?key=${key}`, { body });

    it('records text, markdown and news messages', async () => {
      const robot = fake.addRobot();
      expect(
        (await send(robot.key, { msgtype: 'text', text: { content: '你好', mentioned_list: ['@all'] } })).body,
      ).toEqual({ errcode: 0, errmsg: 'ok' });
      await send(robot.key, { msgtype: 'markdown', markdown: { content: '**发布** <font color="info">成功</font>' } });
      const longTitle = '标'.repeat(60);
      await send(robot.key, {
        msgtype: 'news',
        news: {
          articles: [
            { title: longTitle, description: 'd', url: 'https://example.com/a', picurl: 'https://example.com/p.png' },
          ],
        },
      });
      expect(fake.robotMessages.map((m) => m.msgtype)).toEqual(['text', 'markdown', 'news']);
      const article = (fake.robotMessages[2]!.body.news as { articles: Array<{ title: string }> }).articles[0];
      expect(Buffer.byteLength(article?.title ?? '')).toBeLessThanOrEqual(128);
      expect(article?.title).toBe('标'.repeat(42));
    });

    it('refuses content over the byte caps with 45002 and an unknown key with 93000', async () => {
      const robot = fake.addRobot();
      const tooLong = await send(robot.key, { msgtype: 'text', text: { content: '字'.repeat(683) } });
      expect(tooLong.body.errcode).toBe(45002);
      expect((await send(robot.key, { msgtype: 'text', text: { content: '字'.repeat(682) } })).body.errcode).toBe(0);
      expect(
        (await send(robot.key, { msgtype: 'markdown', markdown: { content: 'x'.repeat(4097) } })).body.errcode,
      ).toBe(45002);
      expect(
        (
          await send(robot.key, {
            msgtype: 'news',
            news: { articles: Array.from({ length: 9 }, () => ({ title: 't', url: 'https://e.com' })) },
          })
        ).body.errcode,
      ).toBe(45008);
      expect((await send(robot.key, { msgtype: 'card' })).body.errcode).toBe(40008);
      const unknown = await send('no-such-key', { msgtype: 'text', text: { content: 'x' } });
      expect(unknown.status).toBe(200);
      expect(unknown.body.errcode).toBe(93000);
      expect(unknown.body.errmsg).toMatch(
        /^invalid webhook url, hint: \[.+\], from ip: .+, more info at https:\/\/open\.work\.weixin\.qq\.com\/devtool\/query\?e=93000$/,
      );
      expect(fake.robotMessages).toHaveLength(1);
    });

    it('checks the md5 of an image', async () => {
      const robot = fake.addRobot();
      const md5 = createHash('md5').update(PNG).digest('hex');
      expect(
        (await send(robot.key, { msgtype: 'image', image: { base64: PNG.toString('base64'), md5: '0'.repeat(32) } }))
          .body.errcode,
      ).toBe(301019);
      expect(
        (await send(robot.key, { msgtype: 'image', image: { base64: PNG.toString('base64'), md5 } })).body.errcode,
      ).toBe(0);
    });

    it('sends a file uploaded to the same robot only', async () => {
      const robot = fake.addRobot();
      const other = fake.addRobot();
      const { body, contentType } = buildMultipart([
        { name: 'media', value: Buffer.from('release notes'), filename: 'notes.txt', extra: '; filelength=13' },
      ]);
      const upload = await call<Answer>(`${fake.url}/cgi-bin/webhook/upload_media?key=${robot.key}&type=file`, {
        raw: body,
        headers: { 'content-type': contentType },
        method: 'POST',
      });
      expect(upload.body).toMatchObject({ errcode: 0, type: 'file' });
      const mediaId = String(upload.body.media_id);
      expect((await send(other.key, { msgtype: 'file', file: { media_id: mediaId } })).body.errcode).toBe(40007);
      expect((await send(robot.key, { msgtype: 'file', file: { media_id: mediaId } })).body.errcode).toBe(0);
      await fake.advance(3 * 24 * 3600_000);
      expect((await send(robot.key, { msgtype: 'file', file: { media_id: mediaId } })).body.errcode).toBe(40007);
    });

    it('allows 20 messages a minute per robot, then blocks it for 60 s with 45009', async () => {
      const robot = fake.addRobot();
      const other = fake.addRobot();
      const text = { msgtype: 'text', text: { content: 'x' } };
      for (let i = 0; i < 20; i++) expect((await send(robot.key, text)).body.errcode).toBe(0);
      expect((await send(robot.key, text)).body).toMatchObject({ errcode: 45009 });
      expect((await send(other.key, text)).body.errcode).toBe(0);
      await fake.advance(59_000);
      expect((await send(robot.key, text)).body.errcode).toBe(45009);
      await fake.advance(60_000);
      expect((await send(robot.key, text)).body.errcode).toBe(0);
      expect(fake.state.robotRejections.filter((r) => r.errcode === 45009)).toHaveLength(2);
    });

    it('answers an injected error as WeCom does', async () => {
      const robot = fake.addRobot();
      fake.injectError({ route: 'webhook.send', status: 200 });
      expect((await send(robot.key, { msgtype: 'text', text: { content: 'x' } })).body).toEqual({
        errcode: -1,
        errmsg: 'system busy',
      });
      expect((await send(robot.key, { msgtype: 'text', text: { content: 'x' } })).body.errcode).toBe(0);
    });
  });
});
