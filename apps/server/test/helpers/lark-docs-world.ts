import { FakeClock, startLarkFake, type LarkFake } from '@release/fakes';
import type { WorkflowRow } from '@release/contract';
import type { DialectName } from '../../src/db/database.ts';
import type { LarkEventKeys } from '../../src/integrations/lark/lark-event-envelope.ts';
import { startTestServer, type TestServer } from './test-app.ts';

export const EVENT_PATH = '/api/lark/event';
export const DOCS_BASE_URL = 'https://example.feishu.cn';

/** A test server whose Lark app (wiki, drive, events) is the loopback fake. */
export async function startDocsServer(
  dialect: DialectName,
  lark: LarkFake,
  larkEvents?: LarkEventKeys,
): Promise<TestServer> {
  return startTestServer(dialect, {
    lark: {
      appId: lark.app.appId,
      appSecret: lark.app.appSecret,
      openBaseUrl: lark.url,
      accountsBaseUrl: lark.url,
      passportBaseUrl: lark.url,
    },
    larkEvents,
    larkDocsBaseUrl: DOCS_BASE_URL,
  });
}

export function startDocsFake(): Promise<LarkFake> {
  return startLarkFake({ clock: new FakeClock({ frozen: true }) });
}

/** An app with one custom workflow of type 知识库 (wiki); answers the workflow and the app. */
export async function createWikiWorkflow(
  server: TestServer,
  token: string,
  path: string,
): Promise<{ appId: number; workflow: WorkflowRow }> {
  const appId = (
    await server.request<{ appId: number }>('POST', '/api/app', {
      token,
      body: { appName: `文档-${path}`, appType: 'doc', password: '135790', path },
    })
  ).body.data.appId;
  await server.request('POST', '/api/workflow', {
    token,
    body: { appId, tabName: '知识库', contentType: 'custom', manageType: 'wiki', enterpriseName: '研发知识库' },
  });
  const workflow = (await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token })).body
    .data[0] as WorkflowRow;
  return { appId, workflow };
}
