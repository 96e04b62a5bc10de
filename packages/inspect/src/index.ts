/** Package inspectors: what an uploaded ipa / apk / aab / zip / html is, read without loading it whole. */
export { inspectPackage, detectZipKind, type DeclaredKind, type InspectPackageOptions } from './package-inspector.ts';
export { packageIdentity, type PackageIdentity } from './package-identity.ts';
export { inspectMobileprovision } from './mobileprovision.ts';
export { convertCgbiToPng, isCgbiPng } from './cgbi-png.ts';
export { PackageInspectionError, type InspectionFailureReason } from './inspection-error.ts';
export { defaultLimits } from './zip-index.ts';
export type * from './types.ts';
export { assertOneAppVersion, combineModules, mainModuleOf } from './hap-module-set.ts';
export { locateAppModules, type ModuleFile } from './hap-module-files.ts';
export {
  type HarmonyManifestSigned,
  harmonyManifestSigned,
  harmonyManifestSignedBytes,
  harmonyPublicKey,
  signHarmonyManifest,
  verifyHarmonyManifest,
} from './hap-manifest-signature.ts';
