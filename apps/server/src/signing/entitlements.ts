import { cmsSignedContent } from '@release/inspect/der.ts';
import { isPlistDict, parsePlistDict, type PlistDict, type PlistValue } from '@release/inspect/plist.ts';

/** The `Entitlements` dictionary of a provisioning profile file (CMS or bare plist). */
export function profileEntitlements(content: Buffer): PlistDict {
  let plist: Buffer | null = null;
  try {
    plist = cmsSignedContent(content);
  } catch {
    plist = null;
  }
  const dict = parsePlistDict(plist ?? content);
  const entitlements = dict?.Entitlements;
  return isPlistDict(entitlements) ? entitlements : {};
}

/** The team prefix of an application identifier: `ABCDE12345.com.acme.app` → `ABCDE12345`. */
export const appIdPrefix = (appId: string) => appId.slice(0, Math.max(0, appId.indexOf('.')));

/** Whether a profile's app id (`TEAM.com.acme.app`, `TEAM.com.acme.*`, `TEAM.*`) covers a bundle id. */
export function appIdCovers(appId: string, bundleId: string): boolean {
  const pattern = appId.slice(appId.indexOf('.') + 1);
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return bundleId.startsWith(pattern.slice(0, -1));
  return pattern === bundleId;
}

/** The most specific of the profiles covering a bundle id: exact first, then the longest wildcard. */
export function profileFor<T extends { appId: string }>(profiles: T[], bundleId: string): T | null {
  const covering = profiles.filter((profile) => appIdCovers(profile.appId, bundleId));
  const score = (appId: string) => (appId.endsWith('*') ? appId.length : 10_000);
  return covering.sort((a, b) => score(b.appId) - score(a.appId))[0] ?? null;
}

const hasWildcard = (value: PlistValue): boolean =>
  typeof value === 'string' ? value.includes('*') : Array.isArray(value) ? value.some(hasWildcard) : false;

function retarget(value: PlistValue, oldTeam: string | null, newTeam: string): PlistValue {
  if (typeof value === 'string')
    return oldTeam && value.startsWith(`${oldTeam}.`) ? `${newTeam}${value.slice(oldTeam.length)}` : value;
  if (Array.isArray(value)) return value.map((item) => retarget(item, oldTeam, newTeam));
  return value;
}

/** Keys every signed app carries, whether or not the app had them before. */
const ALWAYS = [
  'application-identifier',
  'com.apple.developer.team-identifier',
  'get-task-allow',
  'keychain-access-groups',
];

/**
 * The entitlements a bundle is signed with (packages.md §3.2): the profile's, limited to what the app asked
 * for (a capability the app never had is not granted; one the profile lacks is dropped), with the
 * identifiers set for this bundle. Where the profile allows a wildcard, the app's own value is kept,
 * moved to the new team.
 */
export function entitlementsFor(options: {
  bundleId: string;
  appId: string;
  profile: PlistDict;
  app: PlistDict | null;
}): PlistDict {
  const team = appIdPrefix(options.appId);
  const teamId =
    typeof options.profile['com.apple.developer.team-identifier'] === 'string'
      ? options.profile['com.apple.developer.team-identifier']
      : team;
  const oldAppId =
    typeof options.app?.['application-identifier'] === 'string' ? options.app['application-identifier'] : null;
  const oldTeam = oldAppId ? appIdPrefix(oldAppId) : null;
  const result: PlistDict = {};
  for (const [key, profileValue] of Object.entries(options.profile)) {
    const appValue = options.app?.[key];
    if (appValue === undefined && !ALWAYS.includes(key)) continue;
    result[key] =
      appValue !== undefined && hasWildcard(profileValue) ? retarget(appValue, oldTeam, team) : profileValue;
  }
  result['application-identifier'] = `${team}.${options.bundleId}`;
  result['com.apple.developer.team-identifier'] = teamId;
  if (Array.isArray(result['keychain-access-groups'])) {
    result['keychain-access-groups'] = result['keychain-access-groups'].map((group) =>
      group === `${team}.*` ? `${team}.${options.bundleId}` : group,
    );
  }
  return result;
}

/**
 * Whether signed entitlements stay within the profile's: each key is the profile's, with the same value or
 * one its wildcard covers (the verifier's check).
 */
export function entitlementsOutsideProfile(signed: PlistDict, profile: PlistDict): string[] {
  const covers = (allowed: PlistValue | undefined, value: PlistValue): boolean => {
    if (allowed === undefined) return false;
    if (typeof allowed === 'string' && typeof value === 'string') {
      if (allowed === value || allowed === '*') return true;
      return allowed.endsWith('*') && value.startsWith(allowed.slice(0, -1));
    }
    if (Array.isArray(value))
      return value.every((item) =>
        Array.isArray(allowed) ? allowed.some((a) => covers(a, item)) : covers(allowed, item),
      );
    return JSON.stringify(allowed) === JSON.stringify(value);
  };
  return Object.keys(signed)
    .filter((key) => !covers(profile[key], signed[key] as PlistValue))
    .sort();
}
