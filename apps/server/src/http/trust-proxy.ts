import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Whose X-Forwarded-For the server believes (Fastify's `trustProxy`): nobody's (false); everybody's (true — the client
 * address is then the leftmost entry, which any client can write); the last N hops (a number); or the proxies at these
 * addresses and networks (the client address is the nearest entry not sent by one of them).
 */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's names for the loopback, link-local and private ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrNetwork(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (/^\d{1,3}$/.test(prefix)) return Number(prefix) <= (family === 4 ? 32 : 128);
  // A dotted netmask (10.0.0.0/255.0.0.0), as proxy-addr also takes for IPv4.
  return family === 4 && isIP(prefix) === 4;
}

/** Reads TRUST_PROXY: true/false, a hop count, or comma-separated addresses/CIDRs; null when it is none of these. */
export function parseTrustProxy(raw: string): TrustProxy | null {
  const value = raw.trim();
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.length > 0 && entries.every(isAddressOrNetwork) ? entries : null;
}

/**
 * The option Fastify is given. A hop count becomes a function trusting the N hops nearest to the server whatever their
 * addresses (Express's meaning): Fastify 5.12 itself refuses a number and trusts nobody then, because a client that
 * reaches the server directly can write those hops itself — hence the docs' advice to use addresses.
 */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * Says once in the log when requests arrive with X-Forwarded-For while TRUST_PROXY is off: behind a proxy every client
 * then has the proxy's address, and the sign-in and install password limits count them all as one.
 */
export function warnOfUntrustedProxy(app: FastifyInstance, trustProxy: TrustProxy) {
  if (trustProxy !== false && trustProxy !== 0) return;
  let warned = false;
  app.addHook('onRequest', async (request) => {
    if (warned || request.headers['x-forwarded-for'] === undefined) return;
    warned = true;
    request.log.warn(
      { peer: request.socket.remoteAddress },
      'requests come with X-Forwarded-For but TRUST_PROXY is off: every client behind that proxy shares its address for the sign-in and install password limits; set TRUST_PROXY to the proxy address (docs/configuration.md)',
    );
  });
}
