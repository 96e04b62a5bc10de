import { describe, expect, it } from 'vitest';
import { appIdCovers, entitlementsFor, entitlementsOutsideProfile, profileFor } from './entitlements.ts';

describe('profiles and bundle ids', () => {
  it('matches exact, prefix-wildcard and team-wide app ids', () => {
    expect(appIdCovers('TEAM.com.acme.app', 'com.acme.app')).toBe(true);
    expect(appIdCovers('TEAM.com.acme.app', 'com.acme.app.widget')).toBe(false);
    expect(appIdCovers('TEAM.com.acme.*', 'com.acme.app.widget')).toBe(true);
    expect(appIdCovers('TEAM.com.acme.*', 'com.other.app')).toBe(false);
    expect(appIdCovers('TEAM.*', 'anything')).toBe(true);
  });

  it('prefers the exact profile, then the longest wildcard', () => {
    const profiles = [{ appId: 'TEAM.*' }, { appId: 'TEAM.com.acme.*' }, { appId: 'TEAM.com.acme.app' }];
    expect(profileFor(profiles, 'com.acme.app')?.appId).toBe('TEAM.com.acme.app');
    expect(profileFor(profiles, 'com.acme.app.widget')?.appId).toBe('TEAM.com.acme.*');
    expect(profileFor(profiles, 'org.other')?.appId).toBe('TEAM.*');
    expect(profileFor([{ appId: 'TEAM.com.acme.app' }], 'org.other')).toBeNull();
  });
});

describe('entitlementsFor', () => {
  const profile = {
    'application-identifier': 'NEWTEAM001.*',
    'com.apple.developer.team-identifier': 'NEWTEAM001',
    'get-task-allow': true,
    'keychain-access-groups': ['NEWTEAM001.*'],
    'aps-environment': 'development',
    'com.apple.developer.associated-domains': '*',
    'com.apple.developer.icloud-services': '*',
  };
  const app = {
    'application-identifier': 'OLDTEAM001.com.acme.app',
    'com.apple.developer.team-identifier': 'OLDTEAM001',
    'get-task-allow': false,
    'keychain-access-groups': ['OLDTEAM001.com.acme.app', 'OLDTEAM001.shared'],
    'com.apple.developer.associated-domains': ['applinks:acme.cn'],
    'com.apple.developer.healthkit': true,
  };

  it("takes the profile's, limited to what the app had, with this bundle's identifiers and the app's values under wildcards", () => {
    expect(entitlementsFor({ bundleId: 'com.acme.app', appId: 'NEWTEAM001.*', profile, app })).toEqual({
      'application-identifier': 'NEWTEAM001.com.acme.app',
      'com.apple.developer.team-identifier': 'NEWTEAM001',
      'get-task-allow': true,
      'keychain-access-groups': ['NEWTEAM001.com.acme.app', 'NEWTEAM001.shared'],
      'com.apple.developer.associated-domains': ['applinks:acme.cn'],
    });
  });

  it('without the old entitlements, grants only the identifiers', () => {
    expect(entitlementsFor({ bundleId: 'com.acme.app', appId: 'NEWTEAM001.*', profile, app: null })).toEqual({
      'application-identifier': 'NEWTEAM001.com.acme.app',
      'com.apple.developer.team-identifier': 'NEWTEAM001',
      'get-task-allow': true,
      'keychain-access-groups': ['NEWTEAM001.com.acme.app'],
    });
  });

  it('finds signed entitlements the profile does not allow', () => {
    const signed = entitlementsFor({ bundleId: 'com.acme.app', appId: 'NEWTEAM001.*', profile, app });
    expect(entitlementsOutsideProfile(signed, profile)).toEqual([]);
    expect(
      entitlementsOutsideProfile(
        { ...signed, 'com.apple.developer.healthkit': true, 'get-task-allow': false },
        profile,
      ),
    ).toEqual(['com.apple.developer.healthkit', 'get-task-allow']);
    expect(entitlementsOutsideProfile({ 'application-identifier': 'OTHER.com.acme.app' }, profile)).toEqual([
      'application-identifier',
    ]);
  });
});
