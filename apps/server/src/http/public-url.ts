import fs from 'node:fs';
import os from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The base URL of absolute links (install pages, OTA manifests, QR codes, part uploads, pushes), without a
 * trailing slash. PUBLIC_URL when set. Without it, links never take a Host header the server does not own
 * (host-header poisoning): a request addressed to one of this server's own addresses (an interface it listens
 * on, localhost, its host name) gets links to that address — the page the user is on — and any other Host
 * gets the server's default address: the LAN address of the default-route interface when it listens on all
 * interfaces (0.0.0.0 / ::), else the address it listens on.
 */
export function publicBaseUrl(request: FastifyRequest, configured: string | undefined): string {
  return resolveBase(request, configured, 'page');
}

/**
 * The base of links meant for another device — a QR code, a link pushed to a chat, a webhook a git server
 * calls, the device-registration profile: as publicBaseUrl, except that a page opened through loopback
 * (localhost, 127.0.0.1, ::1) gets the LAN address, which a phone can open, when the server has one.
 */
export function shareBaseUrl(request: FastifyRequest, configured: string | undefined): string {
  return resolveBase(request, configured, 'share');
}

export interface NetworkView {
  interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]>;
  /** The interfaces with a default route, the one in use first (Linux: /proc/net/route); empty when unknown. */
  routeInterfaces: string[];
  hostname: string;
}

export interface ListenAddress {
  address: string;
  port: number;
}

export interface ServerAddresses {
  /** Where links point by default: the default-route LAN address on a server listening everywhere. */
  primary: string;
  /** Other bases the server answers at (other interfaces, localhost), for the start-up log. */
  others: string[];
  /** Whether the base is a loopback address (no LAN address: a phone cannot open it). */
  primaryIsLoopback: boolean;
  /** Every `host:port` (lowercase, IPv6 without brackets) that names this server. */
  own: Set<string>;
}

/** The interfaces with a default route in /proc/net/route text (destination 0.0.0.0), lowest metric first. */
export function defaultRouteInterfaces(routeTable: string): string[] {
  const routes: Array<{ name: string; metric: number }> = [];
  for (const line of routeTable.split('\n').slice(1)) {
    const [name, destination, , , , , metric, mask] = line.trim().split(/\s+/);
    if (name && destination === '00000000' && mask === '00000000') routes.push({ name, metric: Number(metric) });
  }
  return [...new Set(routes.sort((a, b) => a.metric - b.metric).map((r) => r.name))];
}

export function readNetwork(): NetworkView {
  let routes = '';
  try {
    routes = fs.readFileSync('/proc/net/route', 'utf8');
  } catch {
    // Not Linux: the first private IPv4 address stands in for the default route's.
  }
  return {
    interfaces: os.networkInterfaces(),
    routeInterfaces: defaultRouteInterfaces(routes),
    hostname: os.hostname().toLowerCase(),
  };
}

const isWildcard = (address: string) => address === '0.0.0.0' || address === '::' || address === '0:0:0:0:0:0:0:0';

export function isLoopbackName(host: string): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) ||
    name === '::ffff:127.0.0.1'
  );
}

const isPrivateV4 = (a: string) => /^10\./.test(a) || /^192\.168\./.test(a) || /^172\.(1[6-9]|2\d|3[01])\./.test(a);
const urlHost = (address: string) => (address.includes(':') ? `[${address}]` : address);

/** What the server's links may use, from where it listens and the machine's interfaces. */
export function serverAddresses(listening: ListenAddress[], net: NetworkView): ServerAddresses {
  const own = new Set<string>();
  const candidates: Array<{ address: string; family: 'IPv4' | 'IPv6'; iface: string | null; port: number }> = [];
  for (const listen of listening) {
    const names = ['localhost', net.hostname, `${net.hostname}.local`];
    if (isWildcard(listen.address)) {
      const v6 = listen.address !== '0.0.0.0';
      for (const [iface, infos] of Object.entries(net.interfaces)) {
        for (const info of infos ?? []) {
          if (info.family === 'IPv6' && !v6) continue;
          own.add(`${info.address.toLowerCase()}:${listen.port}`);
          if (!info.internal && !(info.family === 'IPv6' && info.address.toLowerCase().startsWith('fe80')))
            candidates.push({ address: info.address, family: info.family, iface, port: listen.port });
        }
      }
      for (const name of names) own.add(`${name}:${listen.port}`);
    } else {
      own.add(`${listen.address.toLowerCase()}:${listen.port}`);
      if (isLoopbackName(listen.address)) own.add(`localhost:${listen.port}`);
      else
        candidates.push({
          address: listen.address,
          family: listen.address.includes(':') ? 'IPv6' : 'IPv4',
          iface: null,
          port: listen.port,
        });
    }
  }
  // The default route's interface first (the one in use when several have one), IPv4 before IPv6, private before public.
  const routeRank = (iface: string | null) => {
    const index = iface === null ? -1 : net.routeInterfaces.indexOf(iface);
    return index === -1 ? net.routeInterfaces.length : index;
  };
  const rank = (c: (typeof candidates)[number]) =>
    routeRank(c.iface) * 4 + (c.family === 'IPv4' ? 0 : 2) + (c.family === 'IPv4' && isPrivateV4(c.address) ? 0 : 1);
  const sorted = [...candidates].sort((a, b) => rank(a) - rank(b));
  const bases = [...new Set(sorted.map((c) => `http://${urlHost(c.address)}:${c.port}`))];
  const first = listening[0];
  const loopback = first
    ? `http://${isWildcard(first.address) || first.address === 'localhost' ? 'localhost' : urlHost(first.address)}:${first.port}`
    : 'http://localhost';
  const primary = bases[0] ?? loopback;
  const others = bases.slice(1);
  if (bases.length > 0 && listening.some((l) => isWildcard(l.address) || isLoopbackName(l.address)))
    others.push(`http://localhost:${first?.port ?? 80}`);
  return { primary, others, primaryIsLoopback: bases.length === 0, own };
}

const CACHE_MS = 30_000;
const cache = new WeakMap<FastifyInstance['server'], { at: number; key: string; value: ServerAddresses }>();
const warnedHosts = new Set<string>();

/** The addresses of the server answering this request (cached 30 s: interfaces change with DHCP, rarely). */
export function addressesOf(app: Pick<FastifyInstance, 'addresses' | 'server'>): ServerAddresses | null {
  const listening = app
    .addresses()
    .flatMap((a) => (typeof a === 'string' ? [] : [{ address: a.address, port: a.port }]));
  if (listening.length === 0) return null;
  const key = listening.map((l) => `${l.address}:${l.port}`).join(',');
  const cached = cache.get(app.server);
  const now = Date.now();
  if (cached && cached.key === key && now - cached.at < CACHE_MS) return cached.value;
  const value = serverAddresses(listening, readNetwork());
  cache.set(app.server, { at: now, key, value });
  return value;
}

/** `host:port` of a Host header value, lowercase, IPv6 without brackets; null when it does not parse. */
export function hostKey(host: string, protocol: string): string | null {
  try {
    const url = new URL(`${protocol}://${host}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
    const port = url.port || (protocol === 'https' ? '443' : '80');
    return `${url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '')}:${port}`;
  } catch {
    return null;
  }
}

function resolveBase(request: FastifyRequest, configured: string | undefined, purpose: 'page' | 'share'): string {
  if (configured) return configured.replace(/\/+$/, '');
  const own = `${request.protocol}://${request.host}`;
  const addresses = addressesOf(request.server);
  // Not listening (app.inject in tests): no network client can have sent this request.
  if (!addresses) return own;
  const key = hostKey(request.host, request.protocol);
  if (key && addresses.own.has(key)) {
    const loopback = isLoopbackName(key.slice(0, key.lastIndexOf(':')));
    return purpose === 'share' && loopback && !addresses.primaryIsLoopback ? addresses.primary : own;
  }
  if (!warnedHosts.has(request.host) && warnedHosts.size < 100) {
    warnedHosts.add(request.host);
    request.log.warn(
      `Host "${request.host}" is not one of this server's addresses: links use ${addresses.primary}. Set PUBLIC_URL to the address users reach the server at (proxy, DNS name, container port).`,
    );
  }
  return addresses.primary;
}

/** The start-up lines after "is running at" when PUBLIC_URL is unset: the other addresses, and what links use. */
export function startupAddressNote(addresses: ServerAddresses): string {
  const lines = [];
  if (addresses.others.length > 0) lines.push(`  also reachable at ${addresses.others.join(', ')}`);
  lines.push(
    addresses.primaryIsLoopback
      ? '  PUBLIC_URL is not set and the server listens on loopback only: phones cannot open its links or QR codes (HOST=0.0.0.0 listens on the LAN).'
      : `  PUBLIC_URL is not set: links and QR codes use ${addresses.primary}. Behind a proxy, a DNS name or a container port, set PUBLIC_URL.`,
  );
  return `${lines.join('\n')}\n`;
}
