import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowRow } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createSandbox, GitRepo } from '../src/integrations/git/testing/git-fixture.ts';
import { testDialects } from './helpers/dialects.ts';
import { insertItems, startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { transferFile } from './helpers/upload-client.ts';

const alice = { name: 'Alice', email: 'alice@studio.test' };
const site = 'https://release.example.com';

type Card = { body: { elements: Array<{ content: string }> } };
const markdownOf = (card: unknown) => (card as Card).body.elements.map((e) => e.content).join('\n');

/**
 * Issue 19: the pushes that announce a version (upload_app with a chatEnv) say what changed since the build before it
 * of the same platform — the commits between the two builds' source commits, with the list's type labels, the
 * document items of the time between them — cut to the robot's size cap, with a link to the full list in the console.
 */
describe.each(testDialects())('a version announcement lists its changes on %s', (dialect) => {
  let world: MessagingWorld;
  let code: WorkflowRow;
  let levels: WorkflowRow;
  let wecomKey: string;
  let larkToken: string;
  const sandbox = createSandbox('release-announce-');
  let repo: GitRepo;
  let time = Date.UTC(2026, 10, 20) / 1000;
  let versionCode = 1;
  /** 1.1.0, announced with its changes by the first test. */
  let secondId = 0;

  const commit = (message: string) => {
    time += 60;
    return repo.commit({ message, author: alice, time, files: { 'a.txt': `${time}` } });
  };
  const sync = async () => {
    const res = await world.server.request<{ error: string | null }>('POST', `/api/workflow/sync?id=${code.id}`, {
      token: world.admin,
    });
    expect(res.body.data.error).toBeNull();
  };
  const publish = async (name: string, sha: string, chatEnv: 'DevTest' | 'PreFavTest' | null) => {
    await world.advance(60_000);
    const s3Url = await transferFile(
      world.server,
      world.admin,
      `star-${name}.apk`,
      sampleApk({ label: '星际战舰', packageName: 'com.star', versionName: name, versionCode }),
    );
    versionCode += 1;
    const res = await world.server.request<{ id: number }>('POST', '/api/v2/upload_app', {
      token: world.admin,
      body: { appId: world.appId, s3Url, description: `${name} 说明`, attachFileUrls: [], chatEnv, commit: sha },
    });
    expect(res.body.code).toBe(200);
    await world.runJobs();
    return res.body.data.id;
  };

  beforeAll(async () => {
    repo = GitRepo.init(sandbox.path('client'));
    world = await startMessagingWorld(dialect, { publicUrl: site });
    // The test group is a Lark group bot, the release group a WeCom robot (the app settings' two group robots).
    larkToken = world.lark.addBot().token;
    wecomKey = world.wecom.addRobot({ name: '发布群机器人' }).key;
    await world.server.db
      .updateTable('apps')
      .set({
        dev_wecom_url: `${world.lark.url}/open-apis/bot/v2/hook/${larkToken}`,
        prod_wecom_url: world.wecom.robotUrl(wecomKey),
      })
      .where('id', '=', world.appId)
      .execute();
    code = await world.createWorkflow({
      tabName: '客户端',
      contentType: 'default',
      repoType: 'git',
      repoPath: repo.url,
      defaultBranch: 'main',
    });
    levels = await world.createWorkflow({ tabName: '关卡', contentType: 'custom', manageType: 'other' });
  });
  afterAll(async () => {
    await world?.close();
    sandbox.cleanup();
  });

  it('tells the test group the commits and documents since the previous build, with a link to all of them', async () => {
    const first = commit('feat: 第一版');
    await sync();
    await publish('1.0.0', first, null);
    expect(world.lark.botMessages).toEqual([]);
    const fix = commit('fix: 登录崩溃');
    const feat = commit('feat: 新手引导');
    await sync();
    // A document item of the time between the two builds (as the push API stores it).
    await world.advance(1_000);
    await insertItems(world.server, { id: levels.id, appId: world.appId }, [
      { commitId: 'level-3', message: '第 3 关上线', author: '策划小李', time: world.server.clock.now() },
    ]);
    const second = await publish('1.1.0', feat, 'DevTest');
    secondId = second;

    expect(world.lark.state.botRejections).toEqual([]);
    expect(world.lark.botMessages.map((m) => m.botToken)).toEqual([larkToken]);
    const text = markdownOf(world.lark.botMessages[0]?.card);
    const itemLink = (sha: string) => `${site}/commit?commitId=${sha}&workflowId=${code.id}`;
    const listed = text
      .split('\n')
      .filter((l) => l.startsWith('**本版本更新**') || l.startsWith('- ') || /^\*\*(客户端|关卡)\*\*/.test(l));
    expect(listed).toEqual([
      '**本版本更新**（相对 1.0.0 (1)，共 3 条）',
      '**客户端**（2 条）',
      `- [${feat.slice(0, 7)}](${itemLink(feat)}) 【新增/变更】新手引导 — Alice`,
      `- [${fix.slice(0, 7)}](${itemLink(fix)}) 【Bug修改】登录崩溃 — Alice`,
      '**关卡**（1 条）',
      `- [level-3](${site}/commit?commitId=level-3&workflowId=${levels.id}) 第 3 关上线 — 策划小李`,
    ]);
    expect(text).toContain(`[查看全部 3 条变更](${site}/home/app/star?changes=${second})`);
    // The version's own lines stay: its install page.
    expect(text).toContain(`[安装此版本](${site}/package/star?id=${second})`);
  });

  it('cuts many commits to the 4096-byte WeCom markdown, newest first, and links the full list', async () => {
    const long = '调整了关卡、角色和界面里的许多细节，让玩家的体验更好，也修正了几处显示问题'.repeat(2);
    const made = Array.from({ length: 60 }, (_, i) => commit(`feat: 第 ${i} 个改动，${long}`));
    await sync();
    const third = await publish('1.2.0', made[59] as string, 'PreFavTest');

    const [message] = world.wecom.robotMessages.filter((m) => m.key === wecomKey);
    expect(message?.msgtype).toBe('markdown');
    const text = String((message?.body.markdown as { content?: string } | undefined)?.content ?? '');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(text).toContain('**本版本更新**（相对 1.1.0 (2)，共 60 条）');
    expect(text).toContain('**客户端**（60 条）');
    const lines = text.split('\n').filter((l) => l.startsWith('> '));
    // As many as fit, at most the ten newest of the workflow, newest first.
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.length).toBeLessThanOrEqual(10);
    lines.forEach((line, i) => {
      expect(line).toContain(`[${(made[59 - i] as string).slice(0, 7)}]`);
      expect(line).toContain(`<font color="info">新增/变更</font> 第 ${59 - i} 个改动`);
    });
    expect(text).toContain(`[查看全部 60 条变更](${site}/home/app/star?changes=${third})`);
  });

  it('a build pushed by hand from the console (推送) lists the same changes as its announcement', async () => {
    const before = world.lark.botMessages.length;
    const res = await world.server.request('POST', '/api/send_wecom_message', {
      token: world.admin,
      body: { appId: world.appId, receiveType: 'chat', chatEnv: 'DevTest', appVersionId: secondId },
    });
    expect(res.body.code).toBe(200);
    await world.runJobs();
    expect(world.lark.botMessages.length).toBe(before + 1);
    const text = markdownOf(world.lark.botMessages[before]?.card);
    expect(text).toContain('**本版本更新**（相对 1.0.0 (1)，共 3 条）');
    expect(text).toContain('**客户端**（2 条）');
    expect(text).toContain(`[查看全部 3 条变更](${site}/home/app/star?changes=${secondId})`);
  });
});
