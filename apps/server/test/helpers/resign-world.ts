import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppVersionRow, CertificateRow } from '@release/contract';
import { makeP12 } from '@release/inspect/testing/identities.ts';
import { loadAppFiles, openIpa } from '../../src/signing/ipa-archive.ts';
import type { SampleSigningSet } from '../../src/signing/testing/ipa-builder.ts';
import type { TestServer } from './test-app.ts';
import { transferFile } from './upload-client.ts';

export const P12_PASSWORD = 'p12-pass';

/** Uploads the set's identity with the named profiles through /api/cert_upload (as an admin); answers the row. */
export async function uploadSigningSet(
  server: TestServer,
  adminToken: string,
  set: SampleSigningSet,
  profiles: Array<'main' | 'wildcard'> = ['main', 'wildcard'],
): Promise<CertificateRow> {
  const form = new FormData();
  form.append('password', P12_PASSWORD);
  form.append('p12', new Blob([new Uint8Array(makeP12(set.identity, P12_PASSWORD))]), 'dev.p12');
  for (const which of profiles)
    form.append(
      'profiles',
      new Blob([new Uint8Array(which === 'main' ? set.mainProfile : set.wildcardProfile)]),
      `${which}.mobileprovision`,
    );
  const uploaded = await fetch(`${server.url}/api/cert_upload`, {
    method: 'POST',
    headers: { token: adminToken },
    body: form,
  });
  const body = (await uploaded.json()) as { code: number; msg: string; data: CertificateRow };
  if (body.code !== 200) throw new Error(`cert_upload: ${body.msg}`);
  return body.data;
}

/** Publishes a package as a version of the app, as the web app does; answers the version. */
export async function publishPackage(
  server: TestServer,
  token: string,
  appId: number,
  fileName: string,
  bytes: Buffer,
): Promise<AppVersionRow> {
  const fileKey = await transferFile(server, token, fileName, bytes);
  const res = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
    token,
    body: { appId, description: '首个版本', s3Url: fileKey },
  });
  if (res.body.code !== 200) throw new Error(`upload_app: ${res.body.msg}`);
  return res.body.data;
}

/** Downloads a version's ipa and reads its app files (for the verifier). */
export async function filesOfDownload(url: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resign-download-'));
  const file = path.join(dir, 'download.ipa');
  try {
    fs.writeFileSync(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
    const archive = await openIpa(file);
    try {
      return await loadAppFiles(archive);
    } finally {
      archive.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file under `dir`, relative (for "nothing was left behind"). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}
