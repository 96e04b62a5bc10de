import ipaddr from 'ipaddr.js';

/**
 * The admin's list of repository hosts (设置 → 系统): `allow` lets a repository address reach a private, loopback or
 * link-local address; `deny` refuses a host whatever it resolves to. Deny beats allow. Each entry is a host name
 * (`gitlab.lan`), a wildcard for its subdomains (`*.corp.example`), an IP address or a CIDR block (`10.0.0.0/8`,
 * `fd00::/8`); host names are compared case-insensitively, addresses after IPv4-mapped IPv6 is unwrapped.
 */
export interface HostRules {
  allow: string[];
  deny: string[];
}

export const NO_HOST_RULES: HostRules = { allow: [], deny: [] };

type Rule =
  | { kind: 'name'; name: string }
  | { kind: 'suffix'; suffix: string }
  | { kind: 'range'; range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

const NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;

/** An address as compared: IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is the IPv4 address it carries. */
export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.parse(bare);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/** One entry of the list, or null when it is none of the accepted forms. */
export function parseHostRule(entry: string): Rule | null {
  const text = entry.trim().toLowerCase();
  if (text.includes('/')) {
    if (!ipaddr.isValidCIDR(text)) return null;
    const [address, bits] = ipaddr.parseCIDR(text);
    const unwrapped =
      address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96
        ? ([(address as ipaddr.IPv6).toIPv4Address(), bits - 96] as const)
        : ([address, bits] as const);
    return { kind: 'range', range: [unwrapped[0], unwrapped[1]] };
  }
  const address = parseAddress(text);
  if (address) return { kind: 'range', range: [address, address.kind() === 'ipv4' ? 32 : 128] };
  if (text.startsWith('*.') && NAME.test(text.slice(2))) return { kind: 'suffix', suffix: text.slice(1) };
  return NAME.test(text) ? { kind: 'name', name: text } : null;
}

/** The entries that are not a host name, wildcard, address or CIDR block. */
export function invalidHostRules(entries: readonly string[]): string[] {
  return entries.filter((entry) => parseHostRule(entry) === null);
}

function matches(rule: Rule, host: string, address: ipaddr.IPv4 | ipaddr.IPv6 | null): boolean {
  if (rule.kind === 'name') return host === rule.name;
  if (rule.kind === 'suffix') return host.endsWith(rule.suffix);
  return address !== null && address.kind() === rule.range[0].kind() && address.match(rule.range);
}

/**
 * Private (RFC 1918, unique-local), loopback, link-local, CGNAT, multicast, unspecified and every other non-public
 * range — including IPv6 forms that carry an IPv4 address (NAT64, 6to4, Teredo) — are not reached unless allowed.
 */
export function isPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.range() === 'unicast';
}

function hostName(host: string): string {
  return host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** Whether the deny list names this host (by name or wildcard), before anything is resolved. */
export function isNameDenied(host: string, rules: HostRules): boolean {
  const name = hostName(host);
  return rules.deny
    .map(parseHostRule)
    .some((rule) => rule !== null && rule.kind !== 'range' && matches(rule, name, null));
}

export type HostVerdict = 'allowed' | 'refused';

/**
 * Whether a repository on `host` (as written in the address) may be reached at `addresses` (every address it
 * resolved to, or the literal one): refused when the host or any address is denied, or when any address is not
 * public and neither the host nor that address is allowed.
 */
export function judgeHost(host: string, addresses: readonly string[], rules: HostRules): HostVerdict {
  const name = hostName(host);
  const deny = rules.deny.map(parseHostRule).filter((r): r is Rule => r !== null);
  const allow = rules.allow.map(parseHostRule).filter((r): r is Rule => r !== null);
  const parsed = addresses.map(parseAddress);
  if (parsed.length === 0 || parsed.some((a) => a === null)) return 'refused';
  if (deny.some((rule) => matches(rule, name, null) || parsed.some((a) => matches(rule, name, a)))) return 'refused';
  for (const address of parsed) {
    if (address && !isPublicAddress(address) && !allow.some((rule) => matches(rule, name, address))) return 'refused';
  }
  return 'allowed';
}
