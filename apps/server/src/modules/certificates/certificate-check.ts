import { CertMessages, type CertProfileType } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { inspectMobileprovision } from '@release/inspect/mobileprovision.ts';
import { openP12, P12Error, type P12Identity } from '@release/inspect/p12.ts';
import type { ProvisioningProfile } from '@release/inspect/types.ts';
import { ChainError, completeChain } from '../../signing/certificate-chain.ts';

export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
}

/** A profile that passed every check, with the file as uploaded (the signer embeds it as is). */
export interface CheckedProfile {
  fileName: string;
  content: Buffer;
  profile: ProvisioningProfile;
  name: string;
  uuid: string;
  type: CertProfileType;
  appId: string;
  /** The app id without its team prefix: `com.acme.app`, `com.acme.*`, `*`. */
  bundleId: string;
  expireTime: number;
  listsCertificate: boolean;
}

export interface CheckedUpload {
  identity: P12Identity;
  /** The chain signatures carry: the .p12's, completed with Apple's CAs (signing/certificate-chain.ts). */
  chain: Buffer[];
  profiles: CheckedProfile[];
  groupId: string;
  mainBundleId: string;
}

const p12Messages: Record<P12Error['reason'], string> = {
  notP12: CertMessages.notP12,
  wrongPassword: CertMessages.wrongPassword,
  noPrivateKey: CertMessages.noPrivateKey,
  noCertificate: CertMessages.noCertificate,
  keyMismatch: CertMessages.keyMismatch,
  unsupportedKey: CertMessages.unsupportedKey,
  tooCostly: CertMessages.p12TooCostly,
};

/** Opens an uploaded .p12, its failures in the Chinese the console shows (iOS and HarmonyOS uploads alike). */
export function openIdentity(p12: Buffer, password: string): P12Identity {
  try {
    return openP12(p12, password);
  } catch (error) {
    if (error instanceof P12Error) throw AppError.badRequest(p12Messages[error.reason]);
    throw error;
  }
}

/** `ABCDE12345.com.acme.app` → `com.acme.app`; the team prefix is everything before the first dot. */
export function bundleIdOf(appId: string): string {
  const dot = appId.indexOf('.');
  return dot < 0 ? appId : appId.slice(dot + 1);
}

/** The main app's bundle id: the most specific explicit id, so `com.acme.app` beats `com.acme.app.widget` and `*`. */
export function mainBundleIdOf(bundleIds: string[]): string {
  const ranked = [...bundleIds].sort(
    (a, b) => Number(a.includes('*')) - Number(b.includes('*')) || a.length - b.length || a.localeCompare(b),
  );
  return ranked[0] ?? '*';
}

function checkProfile(file: UploadedFile, identity: P12Identity, now: number): CheckedProfile {
  let profile: ProvisioningProfile;
  try {
    profile = inspectMobileprovision(file.bytes);
  } catch {
    throw AppError.badRequest(CertMessages.profileUnreadable(file.fileName));
  }
  const name = profile.name ?? file.fileName;
  if (!profile.isSigned) throw AppError.badRequest(CertMessages.profileUnsigned(file.fileName));
  if (profile.type === 'developer-id' || (profile.platforms.includes('OSX') && !profile.platforms.includes('iOS'))) {
    throw AppError.badRequest(CertMessages.profileNotIos(name));
  }
  const appId = profile.applicationIdentifier;
  if (!profile.uuid || !appId || !profile.expiresAt)
    throw AppError.badRequest(CertMessages.profileUnreadable(file.fileName));
  // A profile of another certificate is the more basic mistake, so it is named before an expiry.
  const listsCertificate = profile.developerCertificates.some(
    (certificate) => certificate.sha1 === identity.certificate.sha1,
  );
  if (!listsCertificate) throw AppError.badRequest(CertMessages.profileMismatch(name));
  const expireTime = profile.expiresAt.getTime();
  if (expireTime <= now) throw AppError.badRequest(CertMessages.profileExpired(name, expireTime));
  return {
    fileName: file.fileName,
    content: file.bytes,
    profile,
    name,
    uuid: profile.uuid,
    type: profile.type,
    appId,
    bundleId: bundleIdOf(appId),
    expireTime,
    listsCertificate,
  };
}

/** A certificate past its end or before its start is refused at upload, with the day in the message. */
export function checkCurrent(identity: P12Identity, now: number): void {
  const { validFrom, validTo } = identity.certificate;
  if (validTo.getTime() <= now) throw AppError.badRequest(CertMessages.certificateExpired(validTo.getTime()));
  if (validFrom.getTime() > now) throw AppError.badRequest(CertMessages.certificateNotYetValid(validFrom.getTime()));
}

/**
 * Everything `/api/cert_upload` checks before anything is stored: the .p12 opens with the password and
 * holds a key with its certificate, the certificate is valid now, and every profile is a signed iOS
 * profile that has not expired and lists that very certificate.
 */
export function checkCertificateUpload(input: {
  p12: Buffer;
  password: string;
  profiles: UploadedFile[];
  now: number;
}): CheckedUpload {
  const identity = openIdentity(input.p12, input.password);
  // Apple issues RSA identities and the iOS signer signs with RSA; an EC .p12 is a HarmonyOS one.
  if (identity.privateKey.asymmetricKeyType !== 'rsa') throw AppError.badRequest(CertMessages.unsupportedKey);
  checkCurrent(identity, input.now);
  let chain: Buffer[];
  try {
    chain = completeChain(identity.certificate.der, identity.chain);
  } catch (error) {
    if (error instanceof ChainError) throw AppError.badRequest(CertMessages.chainIncomplete(error.issuer));
    throw error;
  }
  const profiles: CheckedProfile[] = [];
  for (const file of input.profiles) {
    const checked = checkProfile(file, identity, input.now);
    if (profiles.some((p) => p.uuid === checked.uuid))
      throw AppError.badRequest(CertMessages.profileTwice(checked.name));
    profiles.push(checked);
  }
  return {
    identity,
    chain,
    profiles,
    groupId: identity.teamId ?? profiles[0]?.profile.teamId ?? '',
    mainBundleId: mainBundleIdOf(profiles.map((p) => p.bundleId)),
  };
}
