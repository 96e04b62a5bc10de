import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { fastifyTrustProxy, parseTrustProxy, warnOfUntrustedProxy, type TrustProxy } from './trust-proxy.ts';

/** A server with the warning hook whose log lines are kept; answers the lines logged after `requests`. */
async function warningsAfter(trustProxy: TrustProxy, requests: Array<Record<string, string>>): Promise<string[]> {
  const lines: string[] = [];
  const stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      lines.push(chunk.toString());
      done();
    },
  });
  const app = Fastify({ logger: { level: 'warn', stream }, trustProxy: fastifyTrustProxy(trustProxy) });
  warnOfUntrustedProxy(app, trustProxy);
  app.get('/', async () => 'ok');
  for (const headers of requests) await app.inject({ method: 'GET', url: '/', headers });
  await app.close();
  return lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
}

describe('TRUST_PROXY', () => {
  it('keeps true and false, and is off by default', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
  });

  it('takes a hop count, which trusts exactly that many hops nearest to the server', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    const trust = fastifyTrustProxy(2);
    expect(typeof trust).toBe('function');
    if (typeof trust !== 'function') return;
    expect([0, 1, 2].map((hop) => trust('203.0.113.9', hop))).toEqual([true, true, false]);
  });

  it('takes proxy addresses and networks, IPv4 and IPv6, and proxy-addr’s range names', () => {
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8,fd00::/8,::1,192.168.0.0/255.255.0.0,loopback' }).TRUST_PROXY,
    ).toEqual(['10.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1', '192.168.0.0/255.255.0.0', 'loopback']);
  });

  it('refuses anything else, naming the variable', () => {
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0', 'proxy.example.com', '10.0.0.1,', '::1/129', '1.5'])
      expect(parseTrustProxy(bad)).toBeNull();
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
  });

  it('when off, says once in the log that requests come through a proxy it does not trust', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    const warnings = await warningsAfter(false, [{}, forwarded, forwarded]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('TRUST_PROXY is off');
    expect(await warningsAfter(['127.0.0.1'], [forwarded])).toEqual([]);
  });
});
