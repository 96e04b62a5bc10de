import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CommitLogItem, WorkflowRow } from '@release/contract';
import { sampleHap } from '@release/inspect/testing/hap-builder.ts';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { insertItems, startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { transferFile } from './helpers/upload-client.ts';

type Card = { body: { elements: Array<{ content: string }> } };
type Page = { list: CommitLogItem[] };
type Simple = Record<'ipa' | 'apk' | 'zip' | 'hap', Array<{ appVersionId: number }>>;

/**
 * Issue 21: HarmonyOS builds are named like the other kinds where builds are named — the package workflow's item,
 * the Lark card and WeCom news of a published build, the versions a workflow item is bound to and the version
 * picker — all from the kind table (platformMessageNames, boundGroupOf), through the loopback Lark and WeCom fakes.
 */
describe.each(testDialects())('HarmonyOS builds in workflows and pushes on %s', (dialect) => {
  let world: MessagingWorld;
  let packages: WorkflowRow;
  let custom: WorkflowRow;
  let devKey: string;
  let hapId: number;
  let apkId: number;

  const publish = async (name: string, bytes: Buffer, chatEnv: string | null) => {
    const s3Url = await transferFile(world.server, world.editor.token, name, bytes);
    const res = await world.server.request<{ id: number }>('POST', '/api/v2/upload_app', {
      token: world.editor.token,
      body: { appId: world.appId, s3Url, description: '鸿蒙首发', attachFileUrls: [], chatEnv },
    });
    if (res.body.code !== 200) throw new Error(`publish ${name}: ${res.body.msg}`);
    return res.body.data.id;
  };
  const items = async (workflowId: number) =>
    (
      await world.server.request<Page>('GET', `/api/commit_log_list?workflowIds=${workflowId}`, {
        token: world.editor.token,
      })
    ).body.data.list;

  beforeAll(async () => {
    world = await startMessagingWorld(dialect, { publicUrl: 'https://release.example.com' });
    devKey = world.wecom.addRobot({ name: '测试群机器人' }).key;
    await world.server.db
      .updateTable('apps')
      .set({ dev_wecom_url: world.wecom.robotUrl(devKey) })
      .where('id', '=', world.appId)
      .execute();
    const bot = world.lark.addBot({ secret: 'SEC-harmony' });
    packages = await world.createWorkflow({
      tabName: '安装包',
      contentType: 'package',
      packageType: 'native',
      robotUrl: `${world.lark.url}/open-apis/bot/v2/hook/${bot.token}`,
      robotSecret: 'SEC-harmony',
    });
    custom = await world.createWorkflow({ tabName: '策划' });
    await insertItems(world.server, { id: custom.id, appId: world.appId }, [
      { commitId: 'c0ffee01', message: 'feat: 鸿蒙版上线', author: '王五', time: world.server.clock.now() - 3600_000 },
    ]);
    world.wecom.reset();
    hapId = await publish(
      'entry-default-signed.hap',
      sampleHap({ bundleName: 'com.star', label: '星际战舰', versionName: '2.1.0', versionCode: 2010000 }),
      'DevTest',
    );
    apkId = await publish('star.apk', sampleApk({ label: '星际战舰', packageName: 'com.star' }), null);
    await world.runJobs();
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(() => world.lark.reset());

  it('tells the test group about a published HarmonyOS build as HarmonyOS, with its version and install page', async () => {
    const news = world.wecom.robotMessages.filter((m) => m.key === devKey);
    expect(news.map((m) => m.body)).toEqual([
      {
        msgtype: 'news',
        news: {
          articles: [
            {
              title: '星际战舰 2.1.0 (2010000)',
              description: '鸿蒙首发\nHarmonyOS · 上传人 editor',
              url: `https://release.example.com/package/star?id=${hapId}`,
              picurl: expect.stringMatching(/^https:\/\/release\.example\.com\/api\/media\//),
            },
          ],
        },
      },
    ]);
  });

  it('lists the build in the package workflow and sends its item as a Lark card naming HarmonyOS', async () => {
    const item = (await items(packages.id)).find((i) => i.packageVersion?.appVersionId === hapId);
    expect(item).toMatchObject({
      nativePackageType: 'harmony',
      commitMessage: '鸿蒙首发',
      remark: 'editor',
      packageVersion: { appVersion: '2.1.0', build: '2010000', removed: false },
    });
    expect(item?.cdnUrl).toContain('entry-default-signed.hap');
    const res = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'commit', workflowId: packages.id, indexNo: item?.packageVersion?.indexNo },
      world.editor.token,
    );
    expect(res.body.code).toBe(200);
    await world.runJobs();
    const card = world.lark.botMessages[0]?.card as Card | undefined;
    const text = card?.body.elements.map((e) => e.content).join('\n') ?? '';
    expect(text).toContain('2.1.0 (2010000) · HarmonyOS · 上传人 editor');
    expect(text).toContain(`https://release.example.com/package/star?id=${hapId}`);
  });

  it('binds a workflow item to the HarmonyOS build and shows it under HAP; the version picker offers it', async () => {
    const simple = await world.server.request<Simple>('GET', `/api/app_versions/simple?appId=${world.appId}`, {
      token: world.editor.token,
    });
    expect(simple.body.data.hap.map((v) => v.appVersionId)).toEqual([hapId]);
    expect(simple.body.data.apk.map((v) => v.appVersionId)).toEqual([apkId]);
    const [item] = await items(custom.id);
    const bound = await world.server.request('POST', '/api/app_version/bind_commit', {
      token: world.editor.token,
      body: { commitId: item?.id, appVersionIds: [hapId, apkId] },
    });
    expect(bound.body.code).toBe(200);
    const [after] = await items(custom.id);
    expect(after?.bindVersions.hap.map((v) => [v.appVersionId, v.appVersion, v.build])).toEqual([
      [hapId, '2.1.0', '2010000'],
    ]);
    expect(after?.bindVersions.apk.map((v) => v.appVersionId)).toEqual([apkId]);
    expect(after?.bindVersions.ipa).toEqual([]);
  });
});
