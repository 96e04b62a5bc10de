import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address.ts';

describe('clientAddressKey', () => {
  it('keeps an IPv4 address, without the port some proxies add, and unwraps the IPv4-mapped IPv6 form', () => {
    for (const form of [
      '198.51.100.7',
      ' 198.51.100.7',
      '198.51.100.7:52314',
      '::ffff:198.51.100.7',
      '::FFFF:c633:6407',
      '[::ffff:198.51.100.7]:443',
    ]) {
      expect(clientAddressKey(form), form).toBe('198.51.100.7');
    }
  });

  it('counts IPv6 by its /64, however the address is written', () => {
    for (const form of [
      '2001:db8:1:2::1',
      '2001:DB8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002::abcd',
      '[2001:db8:1:2::9]:8080',
      'fe80::1%eth0',
    ]) {
      expect(clientAddressKey(form), form).toBe(form.startsWith('fe80') ? 'fe80:0:0:0::/64' : '2001:db8:1:2::/64');
    }
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(clientAddressKey('2001:db8:1:2::1'));
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps anything else as written, as a digest past the column width', () => {
    expect(clientAddressKey('unknown')).toBe('unknown');
    expect(clientAddressKey('x'.repeat(65))).toMatch(/^[0-9a-f]{64}$/);
  });
});
