import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../lib/clock.ts';
import { type CannedAnswer, type LoopbackServer, startCannedServer } from '../repo-access/testing/net-servers.ts';
import { createLarkClient, LarkApiError } from './lark-client.ts';

describe('Lark answers that do not fit its envelope', () => {
  let server: LoopbackServer;
  let answers: Record<string, CannedAnswer> = {};
  const token = { body: JSON.stringify({ code: 0, tenant_access_token: 't-1', expire: 7200 }) };
  beforeAll(async () => {
    server = await startCannedServer((path) => answers[path.split('?')[0] ?? ''] ?? { status: 404, body: '' });
  });
  afterAll(() => server?.close());
  const client = () => {
    const base = `http://127.0.0.1:${server.port}`;
    const config = { appId: 'cli_x', appSecret: 's', openBaseUrl: base, accountsBaseUrl: base, passportBaseUrl: base };
    return createLarkClient(config, systemClock);
  };
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );

  it('says so plainly (code -1) for a bare null, a page that is not JSON, or data that is not an object', async () => {
    for (const odd of [{ body: 'null' }, { body: '<html>502</html>', contentType: 'text/html' }, { body: '[1]' }]) {
      answers = { '/open-apis/auth/v3/tenant_access_token/internal': odd };
      const error = await failureOf(client().tenantToken());
      expect(error).toBeInstanceOf(LarkApiError);
      expect(error).toMatchObject({ code: -1, message: '飞书返回了无法解析的内容（HTTP 200）' });
    }
    answers = {
      '/open-apis/auth/v3/tenant_access_token/internal': token,
      '/open-apis/task/v2/tasks': { body: JSON.stringify({ code: 0, msg: 'success', data: 'oops' }) },
    };
    expect(await failureOf(client().request('GET', '/open-apis/task/v2/tasks'))).toMatchObject({ code: -1 });
  });

  it("keeps Lark's own code and message for a refusal, and reads a good answer's data", async () => {
    answers = {
      '/open-apis/auth/v3/tenant_access_token/internal': token,
      '/open-apis/task/v2/tasks': { status: 400, body: JSON.stringify({ code: 1470403, msg: 'no permission' }) },
      '/open-apis/task/v2/tasklists': { body: JSON.stringify({ code: 0, data: { items: [], has_more: false } }) },
    };
    expect(await failureOf(client().request('GET', '/open-apis/task/v2/tasks'))).toMatchObject({
      httpStatus: 400,
      code: 1470403,
      message: 'no permission',
    });
    expect(await client().request('GET', '/open-apis/task/v2/tasklists')).toEqual({ items: [], has_more: false });
  });
});
