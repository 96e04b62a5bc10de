import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { sha256Hex } from '../../lib/crypto.ts';

/** IPv6 clients are counted by network: a host or a household is given a whole /64 and can pick any address in it. */
const IPV6_CLIENT_PREFIX_HEXTETS = 4;

/** `a.b.c.d:port` and `[v6]:port`, as some proxies write X-Forwarded-For; the port is no part of who the client is. */
function withoutPort(text: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed?.[1]) return bracketed[1];
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text);
  return v4?.[1] ?? text;
}

/**
 * The key one client's guesses are counted under: an IPv4 address (also when written IPv4-mapped, `::ffff:a.b.c.d`,
 * or with a port), or the /64 network of an IPv6 address (`2001:db8:1:2::/64`). Anything else — only a trusted proxy's
 * header can give it — is kept as written, as its digest when longer than the column.
 */
export function clientAddressKey(ip: string): string {
  const text = withoutPort(ip.trim()).replace(/%.*$/, '');
  const family = isIP(text);
  if (family === 4) return text;
  if (family === 6) {
    const address = ipaddr.IPv6.parse(text);
    if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
    const network = address.parts.slice(0, IPV6_CLIENT_PREFIX_HEXTETS).map((part) => part.toString(16));
    return `${network.join(':')}::/64`;
  }
  return ip.length <= 64 ? ip : sha256Hex(ip);
}
