import { kindOfBuild, type NativePackageType, type PackageKind } from '@release/contract';

/** What a stored version's file is (kindOfBuild), from its row: metadata.kind, its file name, its platform (unreadable metadata reads as {}: the name and platform still tell). */
export function packageKindOf(v: {
  metadata: { kind?: string };
  file_name: string;
  native_package_type: NativePackageType;
}): PackageKind {
  return kindOfBuild({ statedKind: v.metadata.kind, fileName: v.file_name, platform: v.native_package_type });
}
