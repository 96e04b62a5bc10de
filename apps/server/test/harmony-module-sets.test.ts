import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppVersionRow } from '@release/contract';
import { inspectPackage, type HapInspection, type ModuleFile } from '@release/inspect';
import { sampleHap } from '@release/inspect/testing/hap-builder.ts';
import { withLocalFile } from '../src/storage/local-copy.ts';
import { testDialects } from './helpers/dialects.ts';
import { startHarmonyShop } from './helpers/harmony-shop.ts';
import type { TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const combos = testDialects().flatMap((dialect) =>
  (['local', 's3'] as const).map((store) => [dialect, store] as const),
);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Entry, feature and shared modules uploaded together become one HarmonyOS version, stored as one packed .app. */
describe.each(combos)('HarmonyOS module sets on %s with the %s store', (dialect, store) => {
  let server: TestServer;
  let close: () => Promise<void>;
  let editor: { userId: number; token: string };
  let appId: number;

  const modules = (versionCode: number, overrides: { lib?: number; libBundle?: string } = {}) => ({
    'entry-default-signed.hap': sampleHap({ versionCode, versionName: '3.0.0', dependencies: ['lib'] }),
    'lib-default-signed.hsp': sampleHap({
      versionCode: overrides.lib ?? versionCode,
      versionName: '3.0.0',
      moduleName: 'lib',
      moduleType: 'shared',
      ...(overrides.libBundle ? { bundleName: overrides.libBundle } : {}),
    }),
  });
  const publishSet = async (files: Record<string, Buffer>, body: Record<string, unknown> = {}) => {
    const keys = [];
    for (const [name, bytes] of Object.entries(files)) keys.push(await transferFile(server, editor.token, name, bytes));
    const [s3Url, ...moduleFileUrls] = keys;
    const answer = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, s3Url, moduleFileUrls, ...body },
    });
    return { answer, keys };
  };
  const sessionStates = (keys: string[]) =>
    server.db.selectFrom('upload_sessions').select('state').where('file_key', 'in', keys).execute();
  const direct = async (files: Record<string, Buffer>) => {
    const form = new FormData();
    form.append('appId', String(appId));
    for (const [name, bytes] of Object.entries(files)) form.append('file', new Blob([bytes]), name);
    const response = await fetch(`${server.url}/api/upload_app/direct`, {
      method: 'POST',
      headers: { token: editor.token },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as { msg: string; data: AppVersionRow } };
  };

  beforeAll(async () => {
    ({ server, editor, appId, close } = await startHarmonyShop(dialect, { path: 'harmony-set', store }));
  });
  afterAll(async () => {
    await close?.();
  });

  it('an entry and its shared module become one version whose packed .app serves each module as uploaded', async () => {
    const files = modules(3000000);
    const { answer, keys } = await publishSet(files);
    expect(answer.body).toMatchObject({
      code: 200,
      data: {
        nativePackageType: 'harmony',
        appVersion: '3.0.0',
        build: '3000000',
        fileName: 'com.example.harmony-3.0.0.app',
      },
    });
    const metadata = answer.body.data.metadata as unknown as HapInspection & { moduleFiles: ModuleFile[] };
    expect(metadata.modules.map((m) => [m.name, m.type, m.fileName])).toEqual([
      ['entry', 'entry', 'entry-default-signed.hap'],
      ['lib', 'shared', 'lib-default-signed.hsp'],
    ]);
    expect(metadata.moduleFiles).toEqual(
      Object.entries(files).map(([fileName, bytes]) => ({
        fileName,
        offset: expect.any(Number),
        size: bytes.length,
        sha256: sha256(bytes),
      })),
    );
    // The stored file is a packed .app the inspector reads like one built by DevEco.
    const row = await server.db
      .selectFrom('app_versions')
      .select(['file_key', 'app_size'])
      .where('id', '=', answer.body.data.id)
      .executeTakeFirstOrThrow();
    const again = await withLocalFile(server.blobs, row.file_key, (file) => inspectPackage(file));
    expect(again).toMatchObject({ kind: 'app', bundleName: 'com.example.harmony', versionCode: 3000000 });
    expect((await server.blobs.stat(row.file_key))?.size).toBe(row.app_size);
    // Each module lies whole in the .app, a byte range the install page serves on its own.
    for (const module of metadata.moduleFiles) {
      const chunks: Buffer[] = [];
      const range = { start: module.offset, end: module.offset + module.size - 1 };
      for await (const chunk of await server.blobs.read(row.file_key, range)) chunks.push(chunk as Buffer);
      expect(sha256(Buffer.concat(chunks))).toBe(module.sha256);
    }
    // The uploads are used: their own copies go, sending the same request again answers the same version.
    expect(await sessionStates(keys)).toEqual([{ state: 'registered' }, { state: 'registered' }]);
    for (const key of keys) expect(await server.blobs.stat(key)).toBeNull();
    const [s3Url, ...moduleFileUrls] = keys;
    const repeat = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, s3Url, moduleFileUrls },
    });
    expect(repeat.body.data.id).toBe(answer.body.data.id);
  });

  it('refuses modules of another version code or bundle name, naming the module, and keeps none of them', async () => {
    const mixed = await publishSet(modules(3010000, { lib: 3000000 }));
    expect([mixed.answer.status, mixed.answer.body.msg]).toEqual([
      400,
      '这些模块不属于同一应用的同一版本：lib-default-signed.hsp 的 versionCode 3000000 与 entry-default-signed.hap 的 3010000 不同',
    ]);
    expect(await sessionStates(mixed.keys)).toEqual([{ state: 'aborted' }, { state: 'aborted' }]);
    for (const key of mixed.keys) expect(await server.blobs.stat(key)).toBeNull();
    const other = await publishSet(modules(3010000, { libBundle: 'com.example.other' }));
    expect([other.answer.status, other.answer.body.msg]).toEqual([
      400,
      '这些模块不属于同一应用的同一版本：lib-default-signed.hsp 的包名 com.example.other 与 entry-default-signed.hap 的 com.example.harmony 不同',
    ]);
  });

  it('refuses a set holding anything but modules', async () => {
    const refused = await publishSet({ 'entry.hap': sampleHap(), 'notes.zip': Buffer.from('PK') });
    expect([refused.answer.status, refused.answer.body.msg]).toEqual([
      400,
      'notes.zip 不是 HarmonyOS 模块：一起上传的多个文件须都是 .hap / .hsp（同一应用的同一版本）',
    ]);
  });

  it('the one-request upload takes several modules as one version, and refuses several files of other kinds', async () => {
    const files = modules(3020000);
    const published = await direct(files);
    expect([published.status, published.body.msg]).toEqual([200, 'success']);
    expect(published.body.data).toMatchObject({ appVersion: '3.0.0', build: '3020000', nativePackageType: 'harmony' });
    expect((published.body.data.metadata as { moduleFiles: unknown[] }).moduleFiles).toHaveLength(2);
    const refused = await direct({ 'a.hap': sampleHap(), 'b.apk': Buffer.from('PK') });
    expect([refused.status, refused.body.msg]).toEqual([
      400,
      '一次只能上传一个安装包（字段 file）；只有同一版本的多个 HarmonyOS 模块（.hap / .hsp）可以一起上传',
    ]);
  });
});
