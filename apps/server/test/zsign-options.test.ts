import { beforeAll, describe, expect, it } from 'vitest';
import { ResignOptionMessages, ZsignMessages, type AppVersionRow, type ZsignJob } from '@release/contract';
import { xmlPlist } from '@release/inspect/testing/packages.ts';
import { CS_HASHTYPE, readEmbeddedSignature } from '../src/signing/code-signature.ts';
import { parseMachO } from '../src/signing/macho.ts';
import { sampleSignedIpa } from '../src/signing/testing/ipa-builder.ts';
import { verifyApp } from '../src/signing/verify-app.ts';
import { bytesAt } from '../src/signing/app-files.ts';
import { CORRUPT_JSON_WARNING } from '../src/db/json-column.ts';
import { testDialects } from './helpers/dialects.ts';
import type { TestServer } from './helpers/test-app.ts';
import { filesOfDownload } from './helpers/resign-world.ts';
import { zsignWorld } from './helpers/zsign-world.ts';

describe.each(testDialects())('re-signing with options (/api/zsign options) on %s', (dialect) => {
  const { world, publish, zsign, versionsOf } = zsignWorld(dialect);
  let server: TestServer;
  let editor: { userId: number; token: string };
  let appId: number;
  let certId: number;
  let ipaVersion: AppVersionRow;
  beforeAll(() => {
    ({ server, editor, appId, certId, ipaVersion } = world);
  });

  it('re-signs with options: the new version has the new bundle id, name, version and build, and its note says what changed from which version', async () => {
    const source = await publish(appId, 'Demo.ipa', sampleSignedIpa());
    const res = await zsign({
      certId,
      appVersionId: source.id,
      options: { bundleId: 'com.acme.renamed', displayName: '新名字', version: '2.0.0', build: '100' },
    });
    expect(res.body.data).toMatchObject({ status: 'done' });
    const made = res.body.data.version!;
    expect(made).toMatchObject({ bundleId: 'com.acme.renamed', appVersion: '2.0.0', build: '100' });
    expect(made.description).toBe(
      `${ZsignMessages.note(`#${source.indexNo} 1.2.3 (45)`, 'Apple Development: 韩梅梅 (NEWTEAM001)')}；Bundle ID：com.example.demo → com.acme.renamed；显示名称：演示应用 → 新名字；版本号：1.2.3 → 2.0.0；构建号：45 → 100`,
    );
    const files = await filesOfDownload(made.cdnUrl);
    expect(verifyApp(files)).toEqual([]);
    // The same options again answer with that version; other options are another ask.
    const again = await zsign({
      certId,
      appVersionId: source.id,
      options: { build: '100', version: '2.0.0', displayName: '新名字', bundleId: 'com.acme.renamed' },
    });
    expect(again.body.data.version?.id).toBe(made.id);
    const plain = await zsign({ certId, appVersionId: source.id });
    expect(plain.body.data.version?.id).not.toBe(made.id);
    expect(plain.body.data.version?.bundleId).toBe('com.example.demo');
  });

  it('re-signs with code directories chosen by minimum OS: an iOS 13 app signed with SHA-1 + SHA-256 keeps SHA-256 only, as its note says', async () => {
    const source = await publish(appId, 'Demo.ipa', sampleSignedIpa({ hashType: CS_HASHTYPE.sha1 }));
    const res = await zsign({ certId, appVersionId: source.id, options: { hashesByMinimumOs: true } });
    expect(res.body.data).toMatchObject({ status: 'done' });
    const made = res.body.data.version!;
    expect(made.description).toBe(
      `${ZsignMessages.note(`#${source.indexNo} 1.2.3 (45)`, 'Apple Development: 韩梅梅 (NEWTEAM001)')}；按最低系统版本选择代码目录：Kit.framework、Widget.appex、Demo.app 只保留 SHA-256`,
    );
    const files = await filesOfDownload(made.cdnUrl);
    expect(verifyApp(files)).toEqual([]);
    const binary = bytesAt(files, 'Payload/Demo.app/Demo') ?? Buffer.alloc(0);
    const slice = parseMachO(binary).slices[0]!;
    expect(readEmbeddedSignature(binary, slice)?.codeDirectories.map((cd) => cd.hashType)).toEqual([
      CS_HASHTYPE.sha256,
    ]);
  });

  it('re-signs the main app with given entitlements, as its note says; ones the profile does not allow fail the job naming them', async () => {
    const source = await publish(appId, 'Demo.ipa', sampleSignedIpa());
    const entitlements = xmlPlist({ 'get-task-allow': true }).toString('utf8');
    const res = await zsign({ certId, appVersionId: source.id, options: { entitlements } });
    expect(res.body.data).toMatchObject({ status: 'done' });
    const made = res.body.data.version!;
    expect(made.description).toBe(
      `${ZsignMessages.note(`#${source.indexNo} 1.2.3 (45)`, 'Apple Development: 韩梅梅 (NEWTEAM001)')}；Entitlements：使用给定的（1 项）`,
    );
    const files = await filesOfDownload(made.cdnUrl);
    expect(verifyApp(files)).toEqual([]);
    const binary = bytesAt(files, 'Payload/Demo.app/Demo') ?? Buffer.alloc(0);
    expect(readEmbeddedSignature(binary, parseMachO(binary).slices[0]!)?.entitlements).toEqual({
      'get-task-allow': true,
      'application-identifier': 'NEWTEAM001.com.example.demo',
      'com.apple.developer.team-identifier': 'NEWTEAM001',
    });
    const before = (await versionsOf(appId)).length;
    const refused = await zsign({
      certId,
      appVersionId: source.id,
      options: { entitlements: xmlPlist({ 'aps-environment': 'production' }).toString('utf8') },
    });
    expect(refused.body.data).toMatchObject({
      status: 'failed',
      error: ZsignMessages.entitlementsOutsideProfile('aps-environment'),
    });
    expect((await versionsOf(appId)).length).toBe(before);
  });

  it('refuses options that are not valid, saying what is expected, and signs nothing', async () => {
    const before = (await versionsOf(appId)).length;
    for (const [options, field, message] of [
      [{ bundleId: 'no spaces allowed.app' }, 'bundleId', ResignOptionMessages.bundleId],
      [{ bundleId: 'single' }, 'bundleId', ResignOptionMessages.bundleId],
      [{ displayName: '   ' }, 'displayName', ResignOptionMessages.displayName],
      [{ displayName: '长'.repeat(65) }, 'displayName', ResignOptionMessages.displayName],
      [{ version: '1.2.3.4' }, 'version', ResignOptionMessages.version],
      [{ build: 'abc' }, 'build', ResignOptionMessages.build],
      [{ entitlements: 'not a plist' }, 'entitlements', ResignOptionMessages.entitlements],
      [
        { entitlements: '<?xml version="1.0"?><plist version="1.0"><array><string>x</string></array></plist>' },
        'entitlements',
        ResignOptionMessages.entitlements,
      ],
      [{ entitlements: ' '.repeat(10) + 'x'.repeat(64 * 1024 + 1) }, 'entitlements', ResignOptionMessages.entitlements],
    ] as const) {
      const res = await zsign({ certId, appVersionId: ipaVersion.id, options });
      expect([res.status, res.body.msg]).toEqual([400, `参数错误：options.${field} ${message}`]);
    }
    expect((await versionsOf(appId)).length).toBe(before);
  });

  it('a run whose stored options are damaged fails saying so (its status still answers) rather than sign without them', async () => {
    const source = await publish(appId, 'Demo.ipa', sampleSignedIpa());
    const before = (await versionsOf(appId)).length;
    world.failNextResignedPut = true;
    const first = await zsign({ certId, appVersionId: source.id, options: { displayName: '损坏的选项' } });
    expect(first.body.data).toMatchObject({ status: 'pending', error: ZsignMessages.retrying });
    await server.db
      .updateTable('resign_jobs')
      // Each database's text its own: a warning is given once per column and text.
      .set({ options: `{"displayName": "${dialect}` })
      .where('id', '=', first.body.data.id)
      .execute();
    const warnings: Error[] = [];
    const onWarning = (warning: Error & { code?: string }) => {
      if (warning.code === CORRUPT_JSON_WARNING) warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      server.clock.advance(60_000);
      await server.built.core.jobs.runDue();
      const job = await server.request<ZsignJob>('GET', `/api/zsign/job?id=${first.body.data.id}`, {
        token: editor.token,
      });
      expect(job.body.data).toMatchObject({ status: 'failed', error: ZsignMessages.optionsUnreadable, version: null });
      expect(job.body.data.error).toBe('重签名任务的选项已损坏，未生成新版本，请重新发起重签名');
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.message)).toEqual([
        expect.stringContaining('stored JSON in resign_jobs.options is unreadable'),
      ]);
    } finally {
      process.off('warning', onWarning);
    }
    expect((await versionsOf(appId)).length).toBe(before);
  });
});
