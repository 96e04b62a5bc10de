import type { KeyObject } from 'node:crypto';
import { harmonyManifestSigned, signHarmonyManifest } from '@release/inspect';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';
import {
  checkSignedManifest,
  HarmonyInstallMessages,
  MAX_SIGNED_MANIFEST_BYTES,
  SIGNED_MANIFEST_NAME,
  type SignedManifest,
  type StoredModule,
} from './harmony-install.ts';

/** The private key of an uploaded HarmonyOS identity certifying this key (base64 SPKI DER), or null. */
export type HarmonySigningKeyFor = (publicKey: string) => Promise<KeyObject | null>;

const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The manifest's `app` as hpack writes it (docs/harmonyos.md), from what the upload read: bundle name and type,
 * version, the default label, API versions as `5.0.5(17)`, each module with its device types and SHA-256 (an `.hsp`'s
 * `shared` written `share`, as in Huawei's and hpack's manifests).
 */
export function harmonyManifestApp(v: VersionRecord, modules: readonly StoredModule[]): Record<string, unknown> {
  const meta = v.metadata as Record<string, unknown>;
  const versionCode = typeof meta.versionCode === 'number' ? meta.versionCode : Number(v.build);
  return {
    bundleName: v.bundle_id,
    bundleType: textOf(meta.bundleType) ?? 'app',
    versionCode,
    versionName: textOf(meta.versionName) ?? v.app_version,
    label: textOf(meta.label) ?? v.display_name,
    minAPIVersion: textOf(meta.minApiVersion),
    targetAPIVersion: textOf(meta.targetApiVersion),
    modules: modules.map((m) => ({
      name: m.name,
      type: m.type === 'shared' ? 'share' : m.type,
      deviceTypes: m.deviceTypes,
      packageHash: m.sha256,
    })),
  };
}

/**
 * The signed install manifest of a HarmonyOS build (docs/harmonyos.md). A manifest signed elsewhere, an attachment of
 * the build (`*manifest*.json5`), is read (≤ 256 KiB) and used only when it describes this build and its `sign`
 * verifies with the build's signing certificate. Without one, the server signs the manifest it builds with the
 * uploaded HarmonyOS identity whose certificate carries the key the modules are signed with (`signature.publicKey`);
 * with none, the page says what to upload (a manifest signed with another key fails on the device, error 10019).
 */
export function signedManifestReader(blobs: Pick<BlobStore, 'read' | 'stat'>, signingKeyFor: HarmonySigningKeyFor) {
  async function signedHere(v: VersionRecord, modules: StoredModule[]): Promise<SignedManifest | { problem: string }> {
    const publicKey = (v.metadata as { signature?: { publicKey?: unknown } | null }).signature?.publicKey;
    const key = typeof publicKey === 'string' ? await signingKeyFor(publicKey) : null;
    const app = harmonyManifestApp(v, modules);
    const signed = harmonyManifestSigned(app);
    const sign = key && signHarmonyManifest(app, key);
    return signed && sign ? { sign, signed } : { problem: HarmonyInstallMessages.manifestMissing };
  }

  return async (v: VersionRecord, modules: StoredModule[]): Promise<SignedManifest | { problem: string }> => {
    const attachment = v.attach_files.find((a) => SIGNED_MANIFEST_NAME.test(a.fileName));
    if (!attachment?.fileKey) return signedHere(v, modules);
    const size = (await blobs.stat(attachment.fileKey))?.size;
    if (size === undefined) return signedHere(v, modules);
    if (size > MAX_SIGNED_MANIFEST_BYTES)
      return { problem: HarmonyInstallMessages.manifestMismatch(`${attachment.fileName} 超过 256 KB`) };
    const chunks: Buffer[] = [];
    for await (const chunk of await blobs.read(attachment.fileKey)) chunks.push(chunk as Buffer);
    return checkSignedManifest(Buffer.concat(chunks).toString('utf8'), v, modules);
  };
}
