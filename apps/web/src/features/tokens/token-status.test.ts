import { describe, expect, it } from 'vitest';
import { cliUsageSample, shownPrefix, tokenStatus } from './token-status.ts';

const NOW = 1_700_000_000_000;

describe('tokenStatus', () => {
  it('is active without expiry or revocation, and before its expiry', () => {
    expect(tokenStatus({ expireTime: null, revokedTime: null }, NOW)).toBe('active');
    expect(tokenStatus({ expireTime: NOW + 1, revokedTime: null }, NOW)).toBe('active');
  });

  it('is expired from the expiry instant on', () => {
    expect(tokenStatus({ expireTime: NOW, revokedTime: null }, NOW)).toBe('expired');
    expect(tokenStatus({ expireTime: NOW - 1, revokedTime: null }, NOW)).toBe('expired');
  });

  it('is revoked whatever the expiry says', () => {
    expect(tokenStatus({ expireTime: null, revokedTime: NOW - 5 }, NOW)).toBe('revoked');
    expect(tokenStatus({ expireTime: NOW - 10, revokedTime: NOW - 5 }, NOW)).toBe('revoked');
  });
});

describe('token display', () => {
  it('shows the stored prefix with an ellipsis', () => {
    expect(shownPrefix('rst_AbCd')).toBe('rst_AbCd…');
  });

  it('puts the origin in the CLI sample and keeps the token a placeholder', () => {
    const sample = cliUsageSample('https://release.example.com');
    expect(sample).toBe(
      'RELEASE_SERVER=https://release.example.com RELEASE_TOKEN=<token> npx release-cli upload app.ipa --app <path>',
    );
  });
});
