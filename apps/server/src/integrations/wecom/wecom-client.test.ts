import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../lib/clock.ts';
import { type CannedAnswer, type LoopbackServer, startCannedServer } from '../repo-access/testing/net-servers.ts';
import { createWecomClient, WecomApiError } from './wecom-client.ts';

describe('WeCom answers that do not fit', () => {
  let server: LoopbackServer;
  let answers: Record<string, CannedAnswer> = {};
  const token = { body: JSON.stringify({ errcode: 0, errmsg: 'ok', access_token: 'at', expires_in: 7200 }) };
  beforeAll(async () => {
    server = await startCannedServer((path) => answers[path.split('?')[0] ?? ''] ?? { status: 404, body: '' });
  });
  afterAll(() => server?.close());
  const member = () => {
    const base = `http://127.0.0.1:${server.port}`;
    const config = { corpId: 'ww1', agentId: '1000002', secret: 's', baseUrl: base, loginBaseUrl: base };
    return createWecomClient(config, systemClock).member('CODE');
  };
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );

  it('says so plainly (errcode -1) for an answer that is not an object or lacks the fields a call reads', async () => {
    for (const [odd, message] of [
      [{ body: 'null' }, '企业微信返回了无法解析的内容（HTTP 200）'],
      [{ body: '{"errcode": "0"}' }, '企业微信返回了无法解析的内容（HTTP 200）'],
      [{ body: '{"errcode": 0, "errmsg": "ok"}' }, '企业微信返回的内容不完整（/cgi-bin/gettoken）'],
    ] as const) {
      answers = { '/cgi-bin/gettoken': odd };
      const error = await failureOf(member());
      expect(error).toBeInstanceOf(WecomApiError);
      expect(error).toMatchObject({ errcode: -1, message });
    }
  });

  it("keeps WeCom's own errcode, and still tells a visitor from outside the corp (no userid) apart", async () => {
    answers = {
      '/cgi-bin/gettoken': token,
      '/cgi-bin/auth/getuserinfo': { body: JSON.stringify({ errcode: 40029, errmsg: 'invalid code' }) },
    };
    expect(await failureOf(member())).toMatchObject({ errcode: 40029, message: 'invalid code' });
    answers['/cgi-bin/auth/getuserinfo'] = { body: JSON.stringify({ errcode: 0, errmsg: 'ok', openid: 'o1' }) };
    expect(await failureOf(member())).toMatchObject({ errcode: 0, message: '该企业微信账号不是本企业成员' });
    answers['/cgi-bin/auth/getuserinfo'] = { body: JSON.stringify({ errcode: 0, errmsg: 'ok', userid: 'zhangsan' }) };
    answers['/cgi-bin/user/get'] = { body: JSON.stringify({ errcode: 0, errmsg: 'ok', name: '张三' }) };
    expect(await member()).toEqual({ userId: 'zhangsan', name: '张三' });
  });
});
