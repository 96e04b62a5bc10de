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

/**
 * The signed install manifest of a HarmonyOS build (docs/harmonyos.md): a manifest signed elsewhere comes as an
 * attachment of the build (`*manifest*.json5`), read (≤ 256 KiB) and used only when it describes this build and its
 * `sign` verifies with the build's signing certificate.
 */
export function signedManifestReader(blobs: Pick<BlobStore, 'read' | 'stat'>) {
  return async (v: VersionRecord, modules: StoredModule[]): Promise<SignedManifest | { problem: string }> => {
    const attachment = v.attach_files.find((a) => SIGNED_MANIFEST_NAME.test(a.fileName));
    if (!attachment?.fileKey) return { problem: HarmonyInstallMessages.manifestMissing };
    const size = (await blobs.stat(attachment.fileKey))?.size;
    if (size === undefined) return { problem: HarmonyInstallMessages.manifestMissing };
    if (size > MAX_SIGNED_MANIFEST_BYTES)
      return { problem: HarmonyInstallMessages.manifestMismatch(`${attachment.fileName} 超过 256 KB`) };
    const chunks: Buffer[] = [];
    for await (const chunk of await blobs.read(attachment.fileKey)) chunks.push(chunk as Buffer);
    return checkSignedManifest(Buffer.concat(chunks).toString('utf8'), v, modules);
  };
}
