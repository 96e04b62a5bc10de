import {
  type HarmonyManifestSigned,
  harmonyManifestSigned,
  harmonyPublicKey,
  verifyHarmonyManifest,
} from '@release/inspect';
import { z } from 'zod';
import { decodeJson } from '../../lib/decode-json.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';

/**
 * What the install page offers for a HarmonyOS build (docs/harmonyos.md): each module served on its own (a byte range
 * of the stored file), for an enterprise or internal-testing build the `store://enterprise/manifest?url=` link to a
 * manifest we fill in, for a debug build its devices and the `hdc install` command.
 */

/** A module of a stored build: where it lies in the file (metadata.moduleFiles, written at upload). */
export interface StoredModule {
  fileName: string;
  offset: number;
  size: number;
  sha256: string;
  /** module.json's name and type (`entry`, `feature`, `shared`). */
  name: string;
  type: string;
  deviceTypes: string[];
}

/** The largest signed manifest read from a build's attachments. */
export const MAX_SIGNED_MANIFEST_BYTES = 256 * 1024;
/** An attachment named like this is the build's manifest signed elsewhere (Huawei's manifest-sign-tool). */
export const SIGNED_MANIFEST_NAME = /manifest[^/]*\.json5?$/i;

export const HarmonyInstallMessages = {
  manifestMissing:
    '企业内部分发需要签名后的安装清单：请管理员在「证书管理 › 鸿蒙签名证书」上传签此安装包的 .p12（服务器用它签名安装清单），或用华为的 manifest-sign-tool 签名 manifest.json5，作为附件随此版本上传',
  manifestMismatch: (why: string) => `随版本上传的签名清单与安装包不符（${why}），请重新签名后上传`,
  manifestSignatureInvalid:
    '随版本上传的签名清单验签失败：sign 与安装包的签名证书不符（清单签名后被改动过，或不是用签此安装包的证书签的），请用签此安装包的 .p12 重新签名后上传',
  manifestNoCertificate: '此版本的安装包没有记录签名证书，无法校验随版本上传的签名清单：请重新上传安装包',
  needsHttps: '鸿蒙设备只从 HTTPS 地址读取安装清单：请通过 HTTPS 访问发布系统',
} as const;

const isText = (value: unknown): value is string => typeof value === 'string';

/** The build's modules in install order (entry first), or none when the upload did not record them. */
export function storedModules(v: VersionRecord): StoredModule[] {
  const files = (v.metadata as { moduleFiles?: unknown }).moduleFiles;
  const modules = (v.metadata as { modules?: unknown }).modules;
  if (!Array.isArray(files) || !Array.isArray(modules)) return [];
  const described = modules.filter(
    (m): m is { name: string; type: string; deviceTypes?: unknown; fileName?: unknown } =>
      typeof m === 'object' && m !== null && isText((m as { name?: unknown }).name),
  );
  const out: StoredModule[] = [];
  for (const file of files) {
    if (typeof file !== 'object' || file === null) continue;
    const { fileName, offset, size, sha256 } = file as Record<string, unknown>;
    if (!isText(fileName) || typeof offset !== 'number' || typeof size !== 'number' || !isText(sha256)) continue;
    // A single .hap/.hsp is its own module (its module row names no file).
    const module = files.length === 1 ? described[0] : described.find((m) => m.fileName === fileName);
    if (!module) continue;
    out.push({
      fileName,
      offset,
      size,
      sha256,
      name: module.name,
      type: module.type,
      deviceTypes: Array.isArray(module.deviceTypes) ? module.deviceTypes.filter(isText) : [],
    });
  }
  return out.sort((a, b) => Number(b.type === 'entry') - Number(a.type === 'entry'));
}

interface ProfileMeta {
  type?: string;
  distributionType?: string | null;
  devices?: string[];
}
const profileOf = (v: VersionRecord): ProfileMeta | null =>
  ((v.metadata as { profile?: ProfileMeta | null }).profile ?? null) as ProfileMeta | null;

/** How a device takes the build: through the enterprise manifest, with hdc (a debug build), or not at all (AppGallery). */
export function harmonyRoute(v: VersionRecord): 'manifest' | 'hdc' | null {
  const profile = profileOf(v);
  if (!profile) return null;
  if (profile.type === 'debug') return 'hdc';
  if (profile.type === 'enterprise' || profile.distributionType === 'internaltesting') return 'manifest';
  return null;
}

/** The devices a debug profile lists (their UDIDs). */
export function profileDevices(v: VersionRecord): string[] | null {
  const profile = profileOf(v);
  return profile?.type === 'debug' ? (profile.devices ?? []).filter(isText) : null;
}

/** `hdc install -r entry.hap lib.hsp`: what a developer runs with the device connected, after downloading the modules. */
export function hdcCommand(modules: readonly StoredModule[]): string {
  return [
    'hdc install -r',
    ...modules.map((m) => (/^[\w.@+-]+$/.test(m.fileName) ? m.fileName : `"${m.fileName}"`)),
  ].join(' ');
}

/** A manifest signed elsewhere that describes this build and whose `sign` verifies: what the device will check. */
export interface SignedManifest {
  sign: string;
  /** What the signature covers (hap-manifest-signature.ts): served as it was signed. */
  signed: HarmonyManifestSigned;
}

/**
 * What the check reads of an uploaded manifest (any JSON, from the uploader): `app` as an object (anything else reads
 * as empty, so the field checks name what is missing) and `sign` as text (anything else as none).
 */
const uploadedManifest = z
  .object({ app: z.record(z.string(), z.unknown()).catch({}), sign: z.string().catch('') })
  .catch({ app: {}, sign: '' });
/** The modules of `app`, each by its packageHash; a list that does not fit names no module of ours. */
const manifestModules = z.array(z.object({ packageHash: z.string() }));

/**
 * A manifest signed elsewhere (uploaded with the build) is used only when it describes this build (same bundle name,
 * version code, the same modules by SHA-256) and its `sign` verifies with the key of the certificate the build is
 * signed with, as the device checks it (docs/harmonyos.md). Answers it, or why it cannot be used.
 */
export function checkSignedManifest(
  text: string,
  v: VersionRecord,
  modules: readonly StoredModule[],
): SignedManifest | { problem: string } {
  const mismatch = (why: string) => ({ problem: HarmonyInstallMessages.manifestMismatch(why) });
  const decoded = decodeJson(text, uploadedManifest);
  if (!decoded.ok) return mismatch('不是 JSON');
  const { app, sign } = decoded.value;
  if (!sign) return mismatch('没有 sign 签名');
  if (app.bundleName !== v.bundle_id) return mismatch(`包名 ${String(app.bundleName)}`);
  if (String(app.versionCode) !== v.build) return mismatch(`versionCode ${String(app.versionCode)}`);
  const listed = manifestModules.safeParse(app.modules);
  const hashes = listed.success ? listed.data.map((m) => m.packageHash.toLowerCase()) : [];
  const ours = modules.map((m) => m.sha256);
  if (hashes.length !== ours.length || !ours.every((hash) => hashes.includes(hash)))
    return mismatch('模块的 packageHash 与安装包不同');
  const publicKey = (v.metadata as { signature?: { publicKey?: unknown } | null }).signature?.publicKey;
  if (!isText(publicKey)) return { problem: HarmonyInstallMessages.manifestNoCertificate };
  const signed = harmonyManifestSigned(app);
  if (!signed || !verifyHarmonyManifest(app, sign, harmonyPublicKey(publicKey)))
    return { problem: HarmonyInstallMessages.manifestSignatureInvalid };
  return { sign, signed };
}

/**
 * The manifest a HarmonyOS browser reads through `store://enterprise/manifest?url=` (the shape of hpack's): what the
 * manifest signed elsewhere signed, as it was signed (the device verifies it), with what is not signed filled in by
 * us: `deployDomain` (our host), `icons` (our icon link) and each module's `packageUrl` (our link to the module whose
 * SHA-256 the signed `packageHash` names).
 */
export function buildHarmonyManifest(input: {
  modules: readonly StoredModule[];
  moduleUrl: (index: number) => string;
  iconUrl: string | null;
  deployDomain: string;
  signed: SignedManifest;
}): Record<string, unknown> {
  const { modules: signedModules = [], ...fields } = input.signed.signed;
  return {
    app: {
      ...fields,
      deployDomain: input.deployDomain,
      icons: { normal: input.iconUrl, large: input.iconUrl },
      modules: signedModules.map((m) => {
        const index = input.modules.findIndex((own) => own.sha256 === m.packageHash?.toLowerCase());
        return { ...m, packageUrl: index >= 0 ? input.moduleUrl(index) : null };
      }),
    },
    sign: input.signed.sign,
  };
}

/** `store://enterprise/manifest?url=<encoded https manifest URL>` (docs/harmonyos.md). */
export function storeManifestLink(manifestUrl: string): string {
  return `store://enterprise/manifest?url=${encodeURIComponent(manifestUrl)}`;
}
