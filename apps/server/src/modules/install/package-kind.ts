import { kindOfFileName, mainKindOf, packageKinds, packageKindRow, type NativePackageType, type PackageKind } from '@release/contract';

/**
 * What a stored version's file is: the inspector's own word (`metadata.kind`, decided by content), else its
 * extension (when that kind is of the version's platform: a Mac app's .zip is not a web zip), else its platform's main kind.
 */
export function packageKindOf(v: { metadata: string; file_name: string; native_package_type: NativePackageType }): PackageKind {
  try {
    const kind = (JSON.parse(v.metadata) as { kind?: unknown }).kind;
    if ((packageKinds as readonly unknown[]).includes(kind)) return kind as PackageKind;
  } catch {
    // Unreadable metadata: the name and platform still tell.
  }
  const fromName = kindOfFileName(v.file_name);
  if (fromName && packageKindRow(fromName).platform === v.native_package_type) return fromName;
  return mainKindOf(v.native_package_type);
}
