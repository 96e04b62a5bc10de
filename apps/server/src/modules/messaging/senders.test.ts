import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CannedAnswer,
  type LoopbackServer,
  startCannedServer,
} from '../../integrations/repo-access/testing/net-servers.ts';
import { JobFailure } from '../../jobs/job-definition.ts';
import { sendLarkBot, sendWecomRobot } from './senders.ts';

describe('robot answers that do not fit', () => {
  let server: LoopbackServer;
  let answer: CannedAnswer = { body: '' };
  beforeAll(async () => {
    server = await startCannedServer(() => answer);
  });
  afterAll(() => server?.close());
  const url = () => `http://127.0.0.1:${server.port}/hook`;
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );

  it("a WeCom robot's bare null or proxy page is a failure to try again (-1), its own refusal keeps its errcode", async () => {
    for (const odd of [{ body: 'null' }, { status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' }]) {
      answer = odd;
      const failure = await failureOf(sendWecomRobot(url(), { msgtype: 'text' }));
      expect(failure).toBeInstanceOf(JobFailure);
      expect(failure).toMatchObject({ retryable: true, code: -1 });
    }
    answer = { body: JSON.stringify({ errcode: 93000, errmsg: 'invalid webhook url' }) };
    expect(await failureOf(sendWecomRobot(url(), { msgtype: 'text' }))).toMatchObject({
      retryable: false,
      code: 93000,
      message: 'invalid webhook url（企业微信 93000）',
    });
  });

  it("a Lark bot's refusal keeps its code, an older bot's StatusCode is read too, and a 502 page is tried again", async () => {
    answer = { body: JSON.stringify({ code: 19021, msg: 'sign match fail or timestamp is not within one hour' }) };
    expect(await failureOf(sendLarkBot(url(), { msg_type: 'text' }, 'secret', Date.now()))).toMatchObject({
      retryable: false,
      code: 19021,
    });
    answer = { body: JSON.stringify({ Extra: null, StatusCode: 0, StatusMessage: 'success' }) };
    expect(await sendLarkBot(url(), { msg_type: 'text' }, null, Date.now())).toEqual({ code: 0, message: 'success' });
    answer = { status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' };
    expect(await failureOf(sendLarkBot(url(), { msg_type: 'text' }, null, Date.now()))).toMatchObject({
      retryable: true,
      code: -1,
    });
  });
});
