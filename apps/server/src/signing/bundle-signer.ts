import type { KeyObject } from 'node:crypto';
import { build as buildPlist } from 'plist';
import { parsePlistDict, plistString, type PlistDict } from '@release/inspect/plist.ts';
import { bytesAt, isBytes, type AppFile, type AppFiles } from './app-files.ts';
import { buildCodeResources } from './code-resources-builder.ts';
import { readEmbeddedSignature, type EmbeddedSignature } from './code-signature.ts';
import { encodeDerEntitlements } from './der-entitlements.ts';
import { entitlementsFor, entitlementsOutsideProfile, profileEntitlements, profileFor } from './entitlements.ts';
import { looksLikeMachO, parseMachO, sliceBytes } from './macho.ts';
import { signMachO, type MachOSigningInput } from './macho-signer.ts';
import { isStreamed, signStreamed, type StreamedExecutable } from './streamed-macho.ts';

/**
 * Re-signs an app held as a map of archive paths to files (`Payload/X.app/...`; resources may be held as their
 * digests only, binaries and plists as bytes): nested bundles first
 * (frameworks, extensions, watch apps), each app or extension with the profile for its bundle id, then the
 * main app. Zip in and out, jobs and versions sit above this.
 */
export interface BundleProfile {
  uuid: string;
  appId: string;
  content: Buffer;
}

export interface BundleSigningInput {
  certificate: Buffer;
  chain: Buffer[];
  privateKey: KeyObject;
  profiles: BundleProfile[];
  signingTime: Date;
  /**
   * Code directories chosen by each bundle's MinimumOSVersion (as Xcode does): SHA-256 only from iOS 11, SHA-1 with
   * a SHA-256 alternate before it. Otherwise (and for a bundle without a readable minimum) as the source had them.
   */
  hashesByMinimumOs?: boolean;
  /** The main app's entitlements, given instead of taken from its profile (each must be allowed by it). */
  entitlements?: PlistDict | null;
  /**
   * A signed streamed executable of a nested bundle with its digests (its source streamed again, signed): the seal of
   * the bundle around it needs them. Without it a streamed nested executable cannot be sealed.
   */
  digestSigned?: (path: string, exe: StreamedExecutable) => Promise<StreamedExecutable>;
}

export interface SignedBundle {
  path: string;
  bundleId: string;
  /** UUID of the embedded profile; null for a framework. */
  profileUuid: string | null;
  /** The code directories of its executable's signature before and after. */
  sourceHashes: MachOSigningInput['hashes'];
  hashes: MachOSigningInput['hashes'];
}

export class BundleSigningError extends Error {
  readonly reason: 'noApp' | 'noProfile' | 'badBundle' | 'entitlements';
  readonly bundleId: string | null;
  constructor(
    reason: 'noApp' | 'noProfile' | 'badBundle' | 'entitlements',
    detail: string,
    bundleId: string | null = null,
  ) {
    super(detail);
    this.name = 'BundleSigningError';
    this.reason = reason;
    this.bundleId = bundleId;
  }
}

const BUNDLE = /\.(app|appex|framework)\/$/;

/** The main app directory: the shortest `Payload/*.app/` holding an Info.plist (as the inspector chooses). */
export function mainAppRoot(files: ReadonlyMap<string, unknown>): string | null {
  const roots = [...files.keys()]
    .filter((name) => /^Payload\/[^/]+\.app\/Info\.plist$/.test(name))
    .map((name) => name.slice(0, -'Info.plist'.length));
  return roots.sort((a, b) => a.length - b.length)[0] ?? null;
}

/** Every bundle under the app (the app included), deepest first, so inner bundles are sealed before outer ones. */
export function bundlesOf(files: ReadonlyMap<string, unknown>, root: string): string[] {
  const roots = new Set<string>([root]);
  for (const name of files.keys()) {
    if (!name.startsWith(root) || !name.endsWith('/Info.plist')) continue;
    const dir = name.slice(0, -'Info.plist'.length);
    if (BUNDLE.test(dir)) roots.add(dir);
  }
  return [...roots].sort((a, b) => b.split('/').length - a.split('/').length || a.localeCompare(b));
}

/** Files of one bundle, relative to it, including nested bundles' files. */
export function filesUnder(files: ReadonlyMap<string, AppFile>, bundle: string): Map<string, AppFile> {
  const out = new Map<string, AppFile>();
  for (const [name, bytes] of files)
    if (name.startsWith(bundle) && !name.endsWith('/')) out.set(name.slice(bundle.length), bytes);
  return out;
}

/** The embedded signature of an executable's first slice (held or streamed). */
export function signatureOf(binary: Buffer | StreamedExecutable): EmbeddedSignature | null {
  if (isStreamed(binary)) return binary.signature;
  const slice = parseMachO(binary).slices[0];
  return slice ? readEmbeddedSignature(sliceBytes(binary, slice), slice) : null;
}

function hashesOf(binary: Buffer | StreamedExecutable): MachOSigningInput['hashes'] {
  return (signatureOf(binary)?.codeDirectories.length ?? 0) > 1 ? 'sha1+sha256' : 'sha256';
}

/** iOS checks SHA-256 code directories from iOS 11 on; older systems need the SHA-1 one (codesign signs so). */
const SHA256_ONLY_FROM_MAJOR = 11;

/** The code directories a bundle's MinimumOSVersion asks for; null when it has none that reads as a version. */
export function hashesForMinimumOs(info: PlistDict | null): MachOSigningInput['hashes'] | null {
  const minimum = info ? plistString(info, 'MinimumOSVersion') : null;
  const major = minimum && /^\d{1,4}(\.\d+){0,2}$/.test(minimum) ? Number.parseInt(minimum, 10) : null;
  if (major === null) return null;
  return major >= SHA256_ONLY_FROM_MAJOR ? 'sha256' : 'sha1+sha256';
}

const oldEntitlements = (binary: Buffer | StreamedExecutable): PlistDict | null =>
  signatureOf(binary)?.entitlements ?? null;

/** Signs loose dylibs of a bundle (not another bundle's executable) as libraries. */
function signLooseDylibs(
  files: AppFiles,
  bundle: string,
  bundles: string[],
  base: Omit<MachOSigningInput, 'identifier' | 'hashes'>,
  /** The bundle's choice by minimum OS; null: as each dylib had them. */
  chosen: MachOSigningInput['hashes'] | null,
): void {
  for (const [name, bytes] of files) {
    if (!name.startsWith(bundle) || !name.endsWith('.dylib')) continue;
    if (bundles.some((other) => other !== bundle && other.startsWith(bundle) && name.startsWith(other))) continue;
    if (!isBytes(bytes) || !looksLikeMachO(bytes)) continue;
    const identifier = name.slice(name.lastIndexOf('/') + 1).replace(/\.dylib$/, '');
    files.set(name, signMachO(bytes, { ...base, identifier, hashes: chosen ?? hashesOf(bytes) }));
  }
}

/** Re-signs every bundle of the app in `files` (changed in place); returns what was signed with which profile. */
export async function resignApp(files: AppFiles, input: BundleSigningInput): Promise<SignedBundle[]> {
  const root = mainAppRoot(files);
  if (!root) throw new BundleSigningError('noApp', 'no Payload/*.app with an Info.plist');
  const bundles = bundlesOf(files, root);
  // The main app's profile decides the team that frameworks and dylibs are signed for.
  const mainInfo = parsePlistDict(bytesAt(files, `${root}Info.plist`) ?? Buffer.alloc(0));
  const mainBundleId = mainInfo ? plistString(mainInfo, 'CFBundleIdentifier') : null;
  const mainProfile = mainBundleId ? profileFor(input.profiles, mainBundleId) : null;
  if (!mainProfile)
    throw new BundleSigningError('noProfile', `no profile covers ${mainBundleId ?? root}`, mainBundleId);
  const appTeam = mainProfile.appId.slice(0, mainProfile.appId.indexOf('.'));
  const signed: SignedBundle[] = [];
  const library = {
    teamId: appTeam as string | null,
    certificate: input.certificate,
    chain: input.chain,
    privateKey: input.privateKey,
    infoPlist: null,
    codeResources: null,
    entitlementsXml: null,
    entitlementsDer: null,
    isMainExecutable: false,
    getTaskAllow: false,
    signingTime: input.signingTime,
  };
  for (const bundle of bundles) {
    const infoPlist = bytesAt(files, `${bundle}Info.plist`);
    const info = infoPlist ? parsePlistDict(infoPlist) : null;
    const bundleId = info ? plistString(info, 'CFBundleIdentifier') : null;
    const executable = info ? plistString(info, 'CFBundleExecutable') : null;
    if (!infoPlist || !bundleId || !executable)
      throw new BundleSigningError('badBundle', `${bundle} has no bundle id or executable`);
    const binaryPath = `${bundle}${executable}`;
    const file = files.get(binaryPath);
    const binary = isStreamed(file) || isBytes(file) ? file : null;
    if (!binary || !looksLikeMachO(isStreamed(binary) ? binary.head : binary))
      throw new BundleSigningError('badBundle', `${binaryPath} is not a Mach-O`, bundleId);
    const isFramework = bundle.endsWith('.framework/');
    const profile = isFramework ? null : profileFor(input.profiles, bundleId);
    if (!isFramework && !profile) throw new BundleSigningError('noProfile', `no profile covers ${bundleId}`, bundleId);
    const teamId = profile ? profile.appId.slice(0, profile.appId.indexOf('.')) : appTeam;
    const chosen = input.hashesByMinimumOs ? hashesForMinimumOs(info) : null;
    signLooseDylibs(files, bundle, bundles, library, chosen);

    let entitlements: PlistDict | null = null;
    if (profile) {
      files.set(`${bundle}embedded.mobileprovision`, profile.content);
      const allowed = profileEntitlements(profile.content);
      entitlements = entitlementsFor({
        bundleId,
        appId: profile.appId,
        profile: allowed,
        app: oldEntitlements(binary),
      });
      if (bundle === root && input.entitlements) {
        // Given ones are signed as given, with this bundle's identifiers; each must be one the profile allows.
        entitlements = {
          ...input.entitlements,
          'application-identifier': entitlements['application-identifier'] as string,
          'com.apple.developer.team-identifier': entitlements['com.apple.developer.team-identifier'] as string,
        };
        const outside = entitlementsOutsideProfile(entitlements, allowed);
        if (outside.length > 0) throw new BundleSigningError('entitlements', outside.join(', '), bundleId);
      }
    }
    const sourceHashes = hashesOf(binary);
    const hashes = chosen ?? sourceHashes;
    const codeResources = buildCodeResources(filesUnder(files, bundle), executable, {
      withSha1: hashes === 'sha1+sha256',
    });
    files.set(`${bundle}_CodeSignature/CodeResources`, codeResources);
    const sign = (exe: typeof binary, signing: MachOSigningInput) =>
      isStreamed(exe) ? signStreamed(exe, signing) : signMachO(exe, signing);
    const signedBinary = sign(binary, {
      ...library,
      identifier: bundleId,
      teamId,
      infoPlist,
      codeResources,
      entitlementsXml: entitlements ? Buffer.from(buildPlist(entitlements), 'utf8') : null,
      entitlementsDer: entitlements ? encodeDerEntitlements(entitlements) : null,
      isMainExecutable: !isFramework,
      getTaskAllow: entitlements?.['get-task-allow'] === true,
      hashes,
    });
    // A nested bundle's executable is sealed by the bundle around it: a streamed one needs the digests of its signed bytes.
    if (isStreamed(signedBinary) && bundle !== root) {
      if (!input.digestSigned) throw new Error(`${binaryPath} is streamed and nothing can take its digests`);
      files.set(binaryPath, await input.digestSigned(binaryPath, signedBinary));
    } else files.set(binaryPath, signedBinary);
    signed.push({ path: bundle, bundleId, profileUuid: profile?.uuid ?? null, sourceHashes, hashes });
  }
  return signed;
}
