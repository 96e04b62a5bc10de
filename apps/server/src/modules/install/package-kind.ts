import { kindOfBuild, type NativePackageType, type PackageKind } from '@release/contract';

/** What a stored version's file is (kindOfBuild), from its row: metadata.kind, its file name, its platform. */
export function packageKindOf(v: {
  metadata: string;
  file_name: string;
  native_package_type: NativePackageType;
}): PackageKind {
  let statedKind: unknown;
  try {
    statedKind = (JSON.parse(v.metadata) as { kind?: unknown }).kind;
  } catch {
    // Unreadable metadata: the name and platform still tell.
  }
  return kindOfBuild({ statedKind, fileName: v.file_name, platform: v.native_package_type });
}
