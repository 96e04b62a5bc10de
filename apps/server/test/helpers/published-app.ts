import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import type { BlobStore } from '../../src/storage/blob-store.ts';
import type { TestServer } from './test-app.ts';
import { transferFile } from './upload-client.ts';

/** SHA-256 of a stored file, or null when the store does not have it. */
export async function storedSha256(blobs: BlobStore, key: string): Promise<string | null> {
  if (!(await blobs.stat(key))) return null;
  const hash = createHash('sha256');
  for await (const chunk of (await blobs.read(key)) as Readable) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** An app 商城 with a package workflow, and a way to publish apk versions (with an attachment) to it through the API. */
export async function publishedApp(server: TestServer, name = '商城') {
  const admin = await server.adminToken();
  const created = await server.request<{ appId: number }>('POST', '/api/app', {
    token: admin,
    body: { appName: name, appType: 'native', password: '135790', path: `p${name.length}${Date.now() % 100000}` },
  });
  if (created.body.code !== 200) throw new Error(`create app: ${created.body.msg}`);
  const appId = created.body.data.appId;
  await server.request('POST', '/api/workflow', {
    token: admin,
    body: { appId, tabName: '安装包', contentType: 'package', packageType: 'apk' },
  });
  return {
    appId,
    admin,
    /** Uploads `<name> <version>.apk` and `说明 <version>.txt` and registers them as a version; answers its id. */
    async publish(versionName: string): Promise<number> {
      const fileKey = await transferFile(server, admin, `${name} ${versionName}.apk`, sampleApk({ versionName }));
      const attachment = await transferFile(
        server,
        admin,
        `说明 ${versionName}.txt`,
        Buffer.from(`版本 ${versionName} 的说明`),
        'attachment',
      );
      const res = await server.request<{ id: number }>('POST', '/api/v2/upload_app', {
        token: admin,
        body: { appId, s3Url: fileKey, attachFileUrls: [attachment] },
      });
      if (res.body.code !== 200) throw new Error(`upload_app ${versionName}: ${res.body.msg}`);
      return res.body.data.id;
    },
  };
}

/** The stored files a version row names: package, icon, attachments. */
export function filesOfVersion(row: { file_key: string; icon_key: string | null; attach_files: string }): string[] {
  const attachments = (JSON.parse(row.attach_files) as Array<{ fileKey: string }>).map((a) => a.fileKey);
  return [row.file_key, ...(row.icon_key ? [row.icon_key] : []), ...attachments];
}
