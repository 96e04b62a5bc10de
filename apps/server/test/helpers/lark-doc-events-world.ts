import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { LarkFake } from '@release/fakes';
import type { CommitLogItem, LarkDocFollow, WorkflowRow } from '@release/contract';
import type { DialectName } from '../../src/db/database.ts';
import { createWikiWorkflow, DOCS_BASE_URL, EVENT_PATH, startDocsFake, startDocsServer } from './lark-docs-world.ts';
import type { TestServer } from './test-app.ts';

export const ENCRYPT_KEY = 'encrypt-key-of-the-lark-console';

/** A document item's metadata as /api/commit_log/metadata_list answers it. */
export interface WikiMeta {
  event: string;
  spaceName: string | null;
  objTitle: string;
  changeVisible: boolean;
  beforeContent: string | null;
  afterContent: string | null;
}

/** What the Lark document event tests share; filled in by the world's beforeAll. */
export interface LarkDocEventsState {
  lark: LarkFake;
  /** Configured like a console with an Encrypt Key: AES bodies and X-Lark-Signature. */
  sealed: TestServer;
  /** Only a Verification Token: plain bodies. */
  plain: TestServer;
  admin: string;
  workflow: WorkflowRow;
  appId: number;
  doc: { node_token: string; obj_token: string };
}

/**
 * The world of the Lark document event tests: the Lark fake with the wiki page 发布流程 in 研发知识库, a server with an
 * Encrypt Key and one with only the Verification Token, their admin, and a wiki workflow. `followed`: the workflow
 * already follows the page and has seen one edit of it (what the earlier scenarios leave behind).
 */
export function useLarkDocEventsWorld(dialect: DialectName, options: { followed?: boolean } = {}) {
  const w = {} as LarkDocEventsState;

  const items = async (server: TestServer, token: string, workflowId: number) =>
    (
      await server.request<{ list: CommitLogItem[] }>(
        'GET',
        `/api/commit_log_list?workflowIds=${workflowId}&onlyCliff=false`,
        { token },
      )
    ).body.data.list;
  const metadataOf = async (server: TestServer, token: string, id: number): Promise<WikiMeta> =>
    JSON.parse(
      (
        await server.request<Record<string, string>>('POST', '/api/commit_log/metadata_list', {
          token,
          body: { ids: [id] },
        })
      ).body.data[String(id)] ?? '{}',
    ) as WikiMeta;
  const docUrl = () => `${DOCS_BASE_URL}/wiki/${w.doc.node_token}`;
  /** Lark's events are answered at once and handled by the job runner (main.ts starts it; here the test drains it). */
  const work = (server: TestServer) => server.built.core.jobs.runDue();
  const follow = (server: TestServer, token: string, workflowId: number, sources: string[]) =>
    server.request<LarkDocFollow[]>('POST', '/api/workflow/lark_docs', { token, body: { workflowId, sources } });

  beforeAll(async () => {
    w.lark = await startDocsFake();
    w.lark.addWikiSpace({ space_id: '7001', name: '研发知识库' });
    w.doc = w.lark.addWikiNode({ space_id: '7001', title: '发布流程' });
    w.sealed = await startDocsServer(dialect, w.lark, {
      verificationToken: w.lark.app.verificationToken,
      encryptKey: ENCRYPT_KEY,
    });
    w.plain = await startDocsServer(dialect, w.lark, {
      verificationToken: w.lark.app.verificationToken,
      encryptKey: null,
    });
    w.admin = await w.sealed.adminToken();
    ({ appId: w.appId, workflow: w.workflow } = await createWikiWorkflow(w.sealed, w.admin, 'wiki'));
    if (options.followed) {
      const res = await follow(w.sealed, w.admin, w.workflow.id, [docUrl()]);
      if (res.status !== 200) throw new Error(`following the page failed: ${res.body.msg}`);
      w.lark.app.encryptKey = ENCRYPT_KEY;
      await w.lark.emitDriveEvent({
        eventType: 'drive.file.edit_v1',
        fileToken: w.doc.obj_token,
        content: '第一版',
        url: `${w.sealed.url}${EVENT_PATH}`,
      });
      await work(w.sealed);
    }
  });
  afterAll(async () => {
    await w.sealed?.close();
    await w.plain?.close();
    await w.lark?.close();
  });
  beforeEach(() => {
    w.lark.app.encryptKey = ENCRYPT_KEY;
  });

  return { w, items, metadataOf, docUrl, work, follow };
}
