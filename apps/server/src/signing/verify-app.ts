import { createHash } from 'node:crypto';
import { inspectMobileprovision } from '@release/inspect/mobileprovision.ts';
import { parsePlistDict, plistString } from '@release/inspect/plist.ts';
import { bytesAt, isBytes, type AppFile } from './app-files.ts';
import { bundlesOf, filesUnder, mainAppRoot, signatureOf } from './bundle-signer.ts';
import { checkSealedFiles, parseCodeResources } from './code-resources.ts';
import { appIdCovers, entitlementsOutsideProfile, profileEntitlements } from './entitlements.ts';
import { looksLikeMachO } from './macho.ts';
import { isStreamed } from './streamed-macho.ts';
import { verifyMachO, verifyStreamed } from './verify-macho.ts';

/**
 * The built-in verifier over a whole app (archive path → bytes): every bundle's executable and loose dylibs
 * (pages, special slots, CMS), its CodeResources seal, and for apps and extensions the embedded profile —
 * present, covering the bundle id, listing the signing certificate, and allowing every signed entitlement.
 * Returns what failed, each prefixed by the bundle; empty means the app is consistently signed.
 */
export function verifyApp(files: ReadonlyMap<string, AppFile>): string[] {
  const root = mainAppRoot(files);
  if (!root) return ['no Payload/*.app'];
  const failures: string[] = [];
  const bundles = bundlesOf(files, root);
  for (const bundle of bundles) {
    const say = (text: string) => failures.push(`${bundle}: ${text}`);
    const infoPlist = bytesAt(files, `${bundle}Info.plist`) ?? null;
    const info = infoPlist ? parsePlistDict(infoPlist) : null;
    const bundleId = info ? plistString(info, 'CFBundleIdentifier') : null;
    const executable = info ? plistString(info, 'CFBundleExecutable') : null;
    const file = executable ? files.get(`${bundle}${executable}`) : undefined;
    const binary = isBytes(file) || isStreamed(file) ? file : undefined;
    if (!bundleId || !executable || !binary) {
      say('no bundle id or executable');
      continue;
    }
    const sealBytes = bytesAt(files, `${bundle}_CodeSignature/CodeResources`) ?? null;
    const context = { infoPlist, codeResources: sealBytes };
    const machOFailures = isStreamed(binary) ? verifyStreamed(binary, context) : verifyMachO(binary, context);
    for (const failure of machOFailures) say(failure);
    const seal = sealBytes ? parseCodeResources(sealBytes) : null;
    if (!seal) say('no CodeResources');
    else {
      const check = checkSealedFiles(seal, filesUnder(files, bundle), executable);
      for (const path of check.mismatched) say(`${path} changed after signing`);
      for (const path of check.missing) say(`${path} missing`);
      for (const path of check.unsealed) say(`${path} not sealed`);
    }
    for (const [name, bytes] of files) {
      const inNested = bundles.some((other) => other !== bundle && other.startsWith(bundle) && name.startsWith(other));
      if (name.startsWith(bundle) && name.endsWith('.dylib') && !inNested && isBytes(bytes) && looksLikeMachO(bytes)) {
        for (const failure of verifyMachO(bytes, { infoPlist: null, codeResources: null }))
          say(`${name.slice(bundle.length)}: ${failure}`);
      }
    }
    const signature = signatureOf(binary);
    const identifier = signature?.codeDirectories[0]?.identifier;
    if (identifier !== bundleId) say(`signed as ${identifier ?? 'nothing'}, bundle id is ${bundleId}`);
    if (bundle.endsWith('.framework/')) continue;
    const profileBytes = bytesAt(files, `${bundle}embedded.mobileprovision`);
    if (!profileBytes) {
      say('no embedded.mobileprovision');
      continue;
    }
    let profile;
    try {
      profile = inspectMobileprovision(profileBytes);
    } catch {
      say('embedded.mobileprovision cannot be read');
      continue;
    }
    if (!profile.applicationIdentifier || !appIdCovers(profile.applicationIdentifier, bundleId))
      say(`profile app id ${profile.applicationIdentifier ?? '-'} does not cover ${bundleId}`);
    const leaf = signature?.certificates[0];
    const leafSha1 = leaf ? createHash('sha1').update(leaf).digest('hex').toUpperCase() : null;
    if (!leafSha1 || !profile.developerCertificates.some((certificate) => certificate.sha1 === leafSha1))
      say('the profile does not list the signing certificate');
    const outside = signature?.entitlements
      ? entitlementsOutsideProfile(signature.entitlements, profileEntitlements(profileBytes))
      : [];
    if (outside.length > 0) say(`entitlements outside the profile: ${outside.join(', ')}`);
  }
  return failures;
}
