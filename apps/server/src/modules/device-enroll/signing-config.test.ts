import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';

describe('MOBILECONFIG_SIGN_CERT / MOBILECONFIG_SIGN_KEY', () => {
  it('are optional together and refused alone', () => {
    expect(loadConfig({}).MOBILECONFIG_SIGN_CERT).toBeUndefined();
    expect(
      loadConfig({ MOBILECONFIG_SIGN_CERT: '/etc/ssl/site.pem', MOBILECONFIG_SIGN_KEY: '/etc/ssl/site.key' }),
    ).toMatchObject({ MOBILECONFIG_SIGN_CERT: '/etc/ssl/site.pem', MOBILECONFIG_SIGN_KEY: '/etc/ssl/site.key' });
    expect(() => loadConfig({ MOBILECONFIG_SIGN_CERT: '/etc/ssl/site.pem' })).toThrow(
      /MOBILECONFIG_SIGN_CERT, MOBILECONFIG_SIGN_KEY: set both or neither/,
    );
  });
});
