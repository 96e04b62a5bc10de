import { packageKinds, type NativePackageType, type PackageKind } from '@release/contract';

const byExtension: Record<string, PackageKind> = { ipa: 'ipa', apk: 'apk', aab: 'aab', html: 'html', htm: 'html', zip: 'zip' };

/**
 * What a stored version's file is: the inspector's own word (`metadata.kind`, decided by content), else its
 * extension, else what its platform usually carries.
 */
export function packageKindOf(v: { metadata: string; file_name: string; native_package_type: NativePackageType }): PackageKind {
  try {
    const kind = (JSON.parse(v.metadata) as { kind?: unknown }).kind;
    if ((packageKinds as readonly unknown[]).includes(kind)) return kind as PackageKind;
  } catch {
    // Unreadable metadata: the name and platform still tell.
  }
  const extension = /\.([A-Za-z0-9]+)$/.exec(v.file_name)?.[1]?.toLowerCase();
  const fromName = extension ? byExtension[extension] : undefined;
  if (fromName && !(v.native_package_type === 'mac' && fromName === 'zip')) return fromName;
  return ({ ios: 'ipa', android: 'apk', mac: 'mac', web: 'zip' } as const)[v.native_package_type];
}
