import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isLoopbackUrl } from './loopback-url.ts';

describe('loopback hosts (a phone scanning a QR code cannot reach them)', () => {
  it('localhost in any case, 127.0.0.0/8 and ::1 are loopback', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true);
  });

  it('a LAN address and a domain are not', () => {
    for (const host of ['10.0.0.5', 'example.com', '128.0.0.1', 'localhost.example.com'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('reads the host of a whole link, including the forms URL normalises', () => {
    expect(isLoopbackUrl('http://localhost:8080/package/beta')).toBe(true);
    expect(isLoopbackUrl('http://LOCALHOST:8080/package/beta')).toBe(true);
    expect(isLoopbackUrl('http://127.0.0.1:8080/package/beta')).toBe(true);
    expect(isLoopbackUrl('http://127.1.2.3/package/beta')).toBe(true);
    expect(isLoopbackUrl('http://[::1]:8080/package/beta')).toBe(true);
    expect(isLoopbackUrl('http://10.0.0.5:8080/package/beta')).toBe(false);
    expect(isLoopbackUrl('https://example.com/package/beta')).toBe(false);
    expect(isLoopbackUrl('not a link')).toBe(false);
  });
});
