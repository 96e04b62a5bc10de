import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppVersionRow, PackageChanges, PackageThresholds } from '@release/contract';
import { sampleApk, sampleOtherSignerSha256, type SampleApkOptions } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { transferFile } from './helpers/upload-client.ts';

const KB = 1024;
/** Random bytes do not compress: a native library of this size takes about as much in the apk. */
const library = (bytes: number) => ({ 'lib/arm64-v8a/libgame.so': randomBytes(bytes) });

/**
 * Issue 19, how the package itself changed: builds published through the API with differing permissions, sizes and
 * signers; their diff read from the facts stored at inspection; an app's thresholds marking a build, its tag on the
 * row and the first line of the push the Lark and WeCom fakes receive.
 */
describe.each(testDialects())('how the package changed between two builds on %s', (dialect) => {
  let world: MessagingWorld;
  let versionCode = 100;
  const ids: Record<string, number> = {};

  const publish = async (name: string, options: SampleApkOptions, chatEnv: 'DevTest' | null = null) => {
    world.server.clock.advance(60_000);
    const s3Url = await transferFile(
      world.server,
      world.editor.token,
      `star-${name}.apk`,
      sampleApk({ label: '星际战舰', packageName: 'com.star', versionName: name, versionCode, ...options }),
    );
    versionCode += 1;
    const res = await world.server.request<{ id: number }>('POST', '/api/v2/upload_app', {
      token: world.editor.token,
      body: { appId: world.appId, s3Url, description: `${name} 说明`, attachFileUrls: [], chatEnv },
    });
    expect(res.body.msg).toBe('success');
    ids[name] = res.body.data.id;
    return res.body.data.id;
  };
  const changes = (versionId: number, query = '', token = world.viewer.token) =>
    world.server.request<PackageChanges>('GET', `/api/version_package_changes?versionId=${versionId}${query}`, {
      token,
    });
  const saveThresholds = (body: PackageThresholds, token = world.editor.token) =>
    world.server.request<PackageThresholds>('POST', '/api/app_package_thresholds', {
      token,
      body: { appId: world.appId, ...body },
    });
  const row = async (id: number) =>
    (
      await world.server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${world.appId}&pageSize=50`, {
        token: world.viewer.token,
      })
    ).body.data.find((v) => v.id === id);

  beforeAll(async () => {
    world = await startMessagingWorld(dialect, { publicUrl: 'https://release.example.com' });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('diffs a build against the previous one from stored facts: sizes by part, permissions, minimum OS, signer', async () => {
    const first = await publish('1.0.0', {
      permissions: ['android.permission.INTERNET'],
      extra: { ...library(100 * KB), 'assets/intro.mp4': randomBytes(40 * KB) },
    });
    const answer = (await changes(first)).body.data;
    expect([answer.base, answer.diff, answer.versionHasFacts]).toEqual([null, null, true]);
    expect(answer.facts?.permissions).toEqual(['android.permission.INTERNET']);

    const second = await publish('1.1.0', {
      permissions: ['android.permission.INTERNET', 'android.permission.CAMERA', 'android.permission.VIBRATE'],
      minSdkVersion: 26,
      otherSigner: true,
      extra: { ...library(300 * KB), 'assets/intro.mp4': randomBytes(10 * KB) },
    });
    const { body } = await changes(second);
    expect(body.data.base?.id).toBe(first);
    const diff = body.data.diff;
    if (!diff) throw new Error('no diff');
    // The native library grew by about 200 KB and the assets shrank by 30 KB: the biggest mover first.
    expect(diff.size.parts.map((p) => p.label)).toEqual(['原生库 arm64-v8a', '资源包', '资源文件']);
    expect(diff.size.parts[0]?.delta).toBeGreaterThan(195 * KB);
    expect(diff.size.parts[1]?.delta).toBeLessThan(-25 * KB);
    expect(diff.size.delta).toBe(diff.size.to - diff.size.from);
    expect(diff.permissions).toEqual({
      added: ['android.permission.CAMERA', 'android.permission.VIBRATE'],
      removed: [],
      dangerousAdded: ['android.permission.CAMERA'],
    });
    expect(diff.minOs).toEqual({ from: 'API 21', to: 'API 26', raised: true });
    expect(diff.certificateChanged).toBe(true);
    expect(diff.signing.to?.certificate).toBe(sampleOtherSignerSha256());
    // Nothing is watched yet: no marks on the build.
    expect([body.data.crossed, body.data.alerts]).toEqual([[], []]);

    // Against an explicit base, read the other way round, the diff still goes from the older to the newer build.
    const reverse = (await changes(first, `&baseVersionId=${second}`)).body.data.diff;
    expect(reverse?.permissions.added).toEqual(['android.permission.CAMERA', 'android.permission.VIBRATE']);
  });

  it('answers 无数据 (no facts) for a build published before facts were stored, never an error', async () => {
    const old = ids['1.0.0'] as number;
    const stored = await world.server.db
      .selectFrom('app_versions')
      .select('metadata')
      .where('id', '=', old)
      .executeTakeFirstOrThrow();
    const { facts: _facts, ...before } = JSON.parse(stored.metadata) as Record<string, unknown>;
    await world.server.db
      .updateTable('app_versions')
      .set({ metadata: JSON.stringify({ ...before, facts: { version: 1, size: 'damaged' } }) })
      .where('id', '=', old)
      .execute();
    const answer = (await changes(ids['1.1.0'] as number)).body.data;
    expect([answer.versionHasFacts, answer.baseHasFacts, answer.diff]).toEqual([true, false, null]);
    expect((await changes(old)).body.data).toMatchObject({ versionHasFacts: false, facts: null });
    await world.server.db
      .updateTable('app_versions')
      .set({ metadata: stored.metadata })
      .where('id', '=', old)
      .execute();
  });

  it('checks the app permit: a stranger gets 404, a viewer cannot set thresholds, bad thresholds are refused', async () => {
    const stranger = await changes(ids['1.1.0'] as number, '', world.subscriber.token);
    expect(stranger.status).toBe(404);
    const none = await changes(999_999);
    expect([none.status, none.body.msg]).toEqual([404, '版本不存在']);
    const rules = { sizePercent: 10, sizeMb: null, dangerousPermission: true, certificate: true, minOsRaised: true };
    expect((await saveThresholds(rules, world.viewer.token)).status).toBe(403);
    expect((await saveThresholds(rules, world.subscriber.token)).status).toBe(404);
    expect((await saveThresholds({ ...rules, sizePercent: 0 })).status).toBe(400);
    const read = await world.server.request<PackageThresholds>(
      'GET',
      `/api/app_package_thresholds?appId=${world.appId}`,
      { token: world.viewer.token },
    );
    expect(read.body.data).toEqual({
      sizePercent: null,
      sizeMb: null,
      dangerousPermission: false,
      certificate: false,
      minOsRaised: false,
    });
  });

  it('marks a build that crosses a threshold: the tag on its row and the first line of the Lark and WeCom pushes', async () => {
    const saved = await saveThresholds({
      sizePercent: 50,
      sizeMb: null,
      dangerousPermission: true,
      certificate: true,
      minOsRaised: false,
    });
    expect(saved.body.data.sizePercent).toBe(50);
    // The test group is a Lark bot.
    const group = world.lark.addBot();
    await world.server.db
      .updateTable('apps')
      .set({ dev_wecom_url: `${world.lark.url}/open-apis/bot/v2/hook/${group.token}` })
      .where('id', '=', world.appId)
      .execute();
    const marked = await publish(
      '1.2.0',
      {
        permissions: ['android.permission.INTERNET', 'android.permission.CAMERA', 'android.permission.RECORD_AUDIO'],
        minSdkVersion: 26,
        extra: { ...library(700 * KB), 'assets/intro.mp4': randomBytes(10 * KB) },
      },
      'DevTest',
    );
    const alerts = (await changes(marked)).body.data.alerts;
    expect(alerts).toEqual([
      expect.stringMatching(/^体积增加 \d+ KB（\+\d+\.\d%）$/),
      '新增敏感权限 RECORD_AUDIO',
      '签名证书已更换，测试人员无法覆盖安装',
    ]);
    expect((await row(marked))?.metadata.packageAlerts).toEqual(alerts);
    expect((await row(marked))?.metadata).not.toHaveProperty('facts');
    await world.runJobs();
    const card = world.lark.botMessages.find((m) => m.botToken === group.token)?.card as {
      header: { title: { content: string }; template: string };
      body: { elements: Array<{ content: string }> };
    };
    expect(card.header.title.content).toBe('安装包提醒 · 星际战舰 新版本 1.2.0 (102)');
    expect(card.header.template).toBe('red');
    expect(card.body.elements[0]?.content.split('\n')[0]).toBe(`**⚠️ 安装包提醒：${alerts.join('；')}**`);

    // The same for a WeCom group robot: markdown (not a news card) whose first line is the alert.
    const robot = world.wecom.addRobot({ name: '测试群机器人' }).key;
    await world.server.db
      .updateTable('apps')
      .set({ dev_wecom_url: world.wecom.robotUrl(robot) })
      .where('id', '=', world.appId)
      .execute();
    const shrunk = await publish('1.3.0', { permissions: ['android.permission.INTERNET'], extra: library(10 * KB) });
    expect((await row(shrunk))?.metadata.packageAlerts).toBeUndefined();
    const again = await publish(
      '1.4.0',
      {
        permissions: ['android.permission.INTERNET', 'android.permission.ACCESS_FINE_LOCATION'],
        extra: library(10 * KB),
      },
      'DevTest',
    );
    await world.runJobs();
    const [message] = world.wecom.robotMessages.filter((m) => m.key === robot);
    expect(message?.body.msgtype).toBe('markdown');
    const lines = String((message?.body.markdown as { content?: string } | undefined)?.content).split('\n');
    expect(lines.slice(0, 2)).toEqual([
      '**⚠️ 安装包提醒：新增敏感权限 ACCESS_FINE_LOCATION**',
      '### 星际战舰 新版本 1.4.0 (104)',
    ]);
    expect((await changes(again)).body.data.crossed).toEqual(['新增敏感权限 ACCESS_FINE_LOCATION']);
  });
});
