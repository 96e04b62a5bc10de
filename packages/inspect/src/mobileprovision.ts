import { summarizeCertificate } from './certificates.ts';
import { cmsSignedContent } from './der.ts';
import { inspectionFailure, PackageInspectionError } from './inspection-error.ts';
import {
  parsePlistDict,
  plistBoolean,
  plistDataArray,
  plistDate,
  plistDictAt,
  plistString,
  plistStrings,
  type PlistDict,
} from './plist.ts';
import type { CertificateSummary, ProfileType, ProvisioningProfile } from './types.ts';
import type { ZipIndex } from './zip-index.ts';

const DEVELOPMENT_CERT = /^(Apple Development|iPhone Developer|Mac Developer)\b/;

function looksLikeBarePlist(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 64)
    .toString('latin1')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return (
    head.startsWith('bplist00') || head.startsWith('<?xml') || head.startsWith('<plist') || head.startsWith('<!DOCTYPE')
  );
}

function profileDict(bytes: Buffer): { dict: PlistDict; isSigned: boolean } | null {
  if (looksLikeBarePlist(bytes)) {
    const dict = parsePlistDict(bytes);
    return dict ? { dict, isSigned: false } : null;
  }
  let content: Buffer | null;
  try {
    content = cmsSignedContent(bytes);
  } catch {
    return null;
  }
  const dict = content ? parsePlistDict(content) : null;
  return dict ? { dict, isSigned: true } : null;
}

/** The rule of packages.md §1.6, checked on every fixture profile. */
function profileType(
  dict: PlistDict,
  devices: string[],
  platforms: string[],
  getTaskAllow: boolean | null,
  certs: CertificateSummary[],
): ProfileType {
  const isMac = platforms.includes('OSX');
  if (plistBoolean(dict, 'ProvisionsAllDevices') === true) return isMac ? 'developer-id' : 'enterprise';
  if (devices.length > 0) {
    if (getTaskAllow !== null) return getTaskAllow ? 'development' : 'ad-hoc';
    // macOS development profiles carry no get-task-allow: the certificate kind tells.
    const isDevelopmentCert = certs.some((cert) => DEVELOPMENT_CERT.test(cert.commonName ?? ''));
    return isDevelopmentCert ? 'development' : 'ad-hoc';
  }
  return 'app-store';
}

/** Reads a `.mobileprovision` / `.provisionprofile`: CMS (DER or BER-chunked) or a bare XML/binary plist. */
export function inspectMobileprovision(bytes: Buffer): ProvisioningProfile {
  const parsed = profileDict(bytes);
  if (!parsed) throw inspectionFailure('metadataUnreadable', '描述文件无法解析');
  const { dict, isSigned } = parsed;
  const entitlements = plistDictAt(dict, 'Entitlements') ?? {};
  const devices = plistStrings(dict, 'ProvisionedDevices');
  const platforms = plistStrings(dict, 'Platform');
  const getTaskAllow =
    plistBoolean(entitlements, 'get-task-allow') ?? plistBoolean(entitlements, 'com.apple.security.get-task-allow');
  const developerCertificates = plistDataArray(dict, 'DeveloperCertificates').flatMap((der) => {
    const summary = summarizeCertificate(der);
    return summary ? [summary] : [];
  });
  return {
    name: plistString(dict, 'Name'),
    uuid: plistString(dict, 'UUID'),
    type: profileType(dict, devices, platforms, getTaskAllow, developerCertificates),
    platforms,
    teamId: plistStrings(dict, 'TeamIdentifier')[0] ?? null,
    teamName: plistString(dict, 'TeamName'),
    appIdName: plistString(dict, 'AppIDName'),
    applicationIdentifier:
      plistString(entitlements, 'application-identifier') ??
      plistString(entitlements, 'com.apple.application-identifier'),
    createdAt: plistDate(dict, 'CreationDate'),
    expiresAt: plistDate(dict, 'ExpirationDate'),
    provisionedDevices: devices,
    provisionsAllDevices: plistBoolean(dict, 'ProvisionsAllDevices') === true,
    getTaskAllow,
    betaReportsActive: plistBoolean(entitlements, 'beta-reports-active') === true,
    developerCertificates,
    isSigned,
  };
}

/** The keys of a profile's `Entitlements` (what the app may use: push, iCloud, keychain groups …); [] when unreadable. */
export function profileEntitlementKeys(bytes: Buffer): string[] {
  const parsed = profileDict(bytes);
  const entitlements = parsed ? plistDictAt(parsed.dict, 'Entitlements') : null;
  return entitlements ? Object.keys(entitlements).sort() : [];
}

/**
 * The provisioning profile a bundle embeds at `path` (an ipa's embedded.mobileprovision, a mac app's
 * embedded.provisionprofile) and its entitlement keys, which are the package facts' entitlements (issue 19). None when
 * the bundle has none; a profile that cannot be read is a warning, not a failed inspection.
 */
export async function readEmbeddedProfile(
  zip: ZipIndex,
  path: string,
  warnings: string[],
): Promise<{ profile: ProvisioningProfile | null; entitlements: string[] }> {
  if (!zip.entries.has(path)) return { profile: null, entitlements: [] };
  try {
    const bytes = await zip.readEntry(path);
    return { profile: inspectMobileprovision(bytes), entitlements: profileEntitlementKeys(bytes) };
  } catch (error) {
    if (!(error instanceof PackageInspectionError) || error.reason !== 'metadataUnreadable') throw error;
    warnings.push(`描述文件（${path.slice(path.lastIndexOf('/') + 1)}）无法解析`);
    return { profile: null, entitlements: [] };
  }
}
