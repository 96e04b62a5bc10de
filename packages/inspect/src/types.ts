/** What a file turned out to be, read from its content (never from its name): a row of the contract's kind table. */
export type { PackageKind } from '@release/contract/package-kinds';

export type IconFormat = 'png' | 'webp' | 'jpeg';

/** An app icon ready to store: `data` is a normal (non-CgBI) image. */
export interface PackageIcon {
  format: IconFormat;
  data: Buffer;
  width: number | null;
  height: number | null;
  /** The entry it came from, e.g. `Payload/X.app/AppIcon60x60@3x.png` or `res/mipmap-xxxhdpi-v4/ic_launcher.png`. */
  sourcePath: string;
  /** The format inside the package when it was converted (CgBI PNG, WebP, adaptive layers). */
  convertedFrom: 'cgbi' | 'webp' | 'adaptive-layers' | null;
}

export interface CertificateSummary {
  commonName: string | null;
  subject: string;
  issuer: string;
  serialNumber: string;
  /** Upper-case hex without separators (Keychain "SHA-1 fingerprint"). */
  sha1: string;
  /** Lower-case hex without separators (apksigner "certificate SHA-256 digest"). */
  sha256: string;
  validFrom: Date;
  validTo: Date;
}

export type ProfileType = 'development' | 'ad-hoc' | 'enterprise' | 'app-store' | 'developer-id';

export interface ProvisioningProfile {
  name: string | null;
  uuid: string | null;
  type: ProfileType;
  platforms: string[];
  teamId: string | null;
  teamName: string | null;
  appIdName: string | null;
  /** `Entitlements.application-identifier`, e.g. `5PJA6N5A3B.*`. */
  applicationIdentifier: string | null;
  createdAt: Date | null;
  expiresAt: Date | null;
  provisionedDevices: string[];
  provisionsAllDevices: boolean;
  getTaskAllow: boolean | null;
  betaReportsActive: boolean;
  developerCertificates: CertificateSummary[];
  /** false for an unsigned (bare plist) profile. */
  isSigned: boolean;
}

/** One top-level part of a package and the bytes it takes in the file (compressed) and installed. */
export interface PackagePart {
  /** `executable`, `frameworks`, `extensions`, `assets`, `resources`, `code`, `signature`, `other`, `native:<abi>`, `dir:<folder>`. */
  key: string;
  size: number;
  installedSize: number;
  files: number;
}

/**
 * What a later build is compared on (issue 19), read once at inspection and stored with the version: sizes by part,
 * permissions, minimum OS, SDKs, signing and what is embedded. Bounded (package-facts.ts FACT_LIMITS).
 */
export interface PackageFacts {
  version: 1;
  size: { total: number; installed: number; parts: PackagePart[] };
  /** Android `uses-permission`; iOS `NS*UsageDescription` keys of Info.plist; HarmonyOS `requestPermissions` names. */
  permissions: string[];
  /** iOS/macOS: the entitlement keys of the embedded profile. */
  entitlements: string[];
  /** As people read it: `12.0` (Apple), `API 24` (Android), `5.0.5(17)` (HarmonyOS). */
  minOs: string | null;
  /** `API 34` / `17.0` (DTPlatformVersion). */
  targetSdk: string | null;
  /** `API 34` (compileSdkVersion) / `iphoneos17.0` (DTSDKName). */
  buildSdk: string | null;
  signing: {
    /** apk: `v2, v3`. */
    scheme: string | null;
    /** apk: the signer's certificate SHA-256; Apple: the profile's first developer certificate's SHA-256. */
    certificate: string | null;
    identity: string | null;
    teamId: string | null;
    profileType: string | null;
    profileName: string | null;
  } | null;
  frameworks: string[];
  extensions: string[];
  dylibs: string[];
}

interface InspectionBase {
  fileSize: number;
  /** Chinese notes for the uploader about what could not be read; the package is still accepted. */
  warnings: string[];
  /** Stored with the version for comparing builds; absent for kinds without any (and older rows). */
  facts?: PackageFacts;
  /** Commit-like values the package carries by key (source-values.ts): where the server reads the build's commit. */
  sourceValues?: Record<string, string>;
}

export type AppleDeviceFamily = 'iphone' | 'ipad' | 'tv' | 'watch' | 'carplay' | 'vision' | 'mac';
export type ApplePlatform = 'ios' | 'tvos' | 'watchos' | 'visionos' | 'macos';

export interface NestedBundle {
  path: string;
  bundleId: string | null;
}

export interface IpaInspection extends InspectionBase {
  kind: 'ipa';
  platform: ApplePlatform;
  displayName: string;
  bundleId: string;
  version: string | null;
  build: string | null;
  minimumOsVersion: string | null;
  deviceFamilies: AppleDeviceFamily[];
  supportedPlatforms: string[];
  executable: string | null;
  /** e.g. `Payload/Demo.app/` */
  bundlePath: string;
  nestedBundles: NestedBundle[];
  icon: PackageIcon | null;
  provisioningProfile: ProvisioningProfile | null;
}

export type ApkSignatureScheme = 'v1' | 'v2' | 'v3' | 'v3.1';

export interface ApkSigner extends CertificateSummary {
  schemes: ApkSignatureScheme[];
}

export interface ApkSignatures {
  schemes: ApkSignatureScheme[];
  /** One row per distinct certificate; the first is the current signer (v3.1 > v3 > v2 > v1). */
  signers: ApkSigner[];
}

export type AndroidDeviceType = 'phone' | 'tv' | 'wear' | 'automotive';

export interface AndroidManifestInfo {
  packageName: string;
  /** Exactly as written in the manifest (`1.0.4 [BETA]` stays `1.0.4 [BETA]`). */
  versionName: string | null;
  versionCode: number | null;
  minSdkVersion: number | null;
  targetSdkVersion: number | null;
  compileSdkVersion: number | null;
  label: string | null;
  /** Labels by locale (`zh-CN`, `fr`...), the default one under `''`. */
  localizedLabels: Record<string, string>;
  permissions: string[];
  features: string[];
  deviceType: AndroidDeviceType;
}

export interface ApkInspection extends InspectionBase, AndroidManifestInfo {
  kind: 'apk';
  nativeAbis: string[];
  icon: PackageIcon | null;
  signatures: ApkSignatures;
}

export interface AabInspection extends InspectionBase, AndroidManifestInfo {
  kind: 'aab';
  nativeAbis: string[];
  signatures: ApkSignatures;
}

export interface MacInspection extends InspectionBase {
  kind: 'mac';
  displayName: string;
  bundleId: string | null;
  version: string | null;
  build: string | null;
  minimumOsVersion: string | null;
  bundlePath: string;
  icon: PackageIcon | null;
  provisioningProfile: ProvisioningProfile | null;
  fileCount: number;
  uncompressedSize: number;
}

export interface WebZipInspection extends InspectionBase {
  kind: 'zip';
  fileCount: number;
  uncompressedSize: number;
  /** The shallowest `index.html`, e.g. `index.html` or `dist/index.html`; null when there is none. */
  indexHtmlPath: string | null;
}

export interface HtmlInspection extends InspectionBase {
  kind: 'html';
  title: string | null;
}

/** A module of a HarmonyOS app: `entry`, `feature`, `shared` (an .hsp) … as its module.json says. */
export interface HarmonyModule {
  name: string;
  type: string;
  deviceTypes: string[];
  /** Names of the modules it needs (module.json `dependencies[].moduleName`). */
  dependencies: string[];
  /** The file it came in, inside a packed .app (`entry-default-signed.hap`); null for the uploaded file itself. */
  fileName: string | null;
}

/** debug: a debug profile (devices listed); enterprise: a release profile for enterprise distribution; release: any other release profile. */
export type HarmonyProfileType = 'debug' | 'release' | 'enterprise';

/** The signed profile in a HAP's sign block (its JSON, docs/harmonyos.md). */
export interface HarmonyProfile {
  type: HarmonyProfileType;
  /** The profile's own `type` (`debug` / `release`) and `app-distribution-type` (`app_gallery`, `enterprise`, `internaltesting` …). */
  declaredType: string | null;
  distributionType: string | null;
  bundleName: string | null;
  developerId: string | null;
  appIdentifier: string | null;
  uuid: string | null;
  issuer: string | null;
  validFrom: Date | null;
  validTo: Date | null;
  /** `debug-info.device-ids`: the devices a debug (or internal test) build installs on. */
  devices: string[];
  deviceIdType: string | null;
  /** The developer certificate the profile names (`distribution-certificate` or `development-certificate`). */
  certificate: CertificateSummary | null;
  /** Who signed the profile (`HOS Profile Management` for Huawei-issued ones). */
  signer: CertificateSummary | null;
}

export interface HarmonySignature {
  /** The certificate that signed the package. */
  certificate: CertificateSummary | null;
  /** That certificate first, then its issuers up to the root, as far as the signature carries them. */
  chain: CertificateSummary[];
  /**
   * The signing certificate's public key (base64 SPKI DER): what a manifest signed elsewhere is verified with
   * (hap-manifest-signature.ts).
   */
  publicKey: string | null;
}

/** A HarmonyOS module file (.hap, or .hsp when its module is `shared`) or a packed .app of several. */
export interface HapInspection extends InspectionBase {
  kind: 'hap' | 'hsp' | 'app';
  bundleName: string;
  bundleType: string | null;
  versionName: string | null;
  versionCode: number | null;
  vendor: string | null;
  /** The app's label resolved through resources.index: the default one. */
  label: string | null;
  /** Labels by locale (`zh_CN`, `en_US` …), the default under `''`. */
  localizedLabels: Record<string, string>;
  icon: PackageIcon | null;
  /** Device types of the entry module (or the only module). */
  deviceTypes: string[];
  /** As people read them: `5.0.5(17)`. */
  minApiVersion: string | null;
  targetApiVersion: string | null;
  compileSdkVersion: string | null;
  /** module.json `app.debug` / `buildMode`: a debug build. */
  debug: boolean;
  buildMode: string | null;
  /** Every module of the file: one for a .hap/.hsp, all of them for a packed .app (entry first). */
  modules: HarmonyModule[];
  signature: HarmonySignature | null;
  profile: HarmonyProfile | null;
}

export type PackageInspection =
  | IpaInspection
  | ApkInspection
  | AabInspection
  | MacInspection
  | WebZipInspection
  | HtmlInspection
  | HapInspection;

/** Guards against hostile archives; every number has a default in zip-index.ts. */
export interface InspectionLimits {
  /** Largest entry read into memory for metadata (Info.plist, manifest, icon...). */
  maxEntryBytes: number;
  /** Largest sum of declared uncompressed sizes. */
  maxTotalUncompressedBytes: number;
  /** Largest uncompressed/compressed ratio, per entry and for the whole archive, above `ratioFloorBytes`. */
  maxCompressionRatio: number;
  /** Ratios are only judged above this many uncompressed bytes. */
  ratioFloorBytes: number;
  maxEntries: number;
}
