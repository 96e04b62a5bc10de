/** Where a git or svn address connects: the host as written, the port, and how the server speaks first (if it does). */
export interface RepoTarget {
  host: string;
  port: number;
  /** tls: a TLS handshake; banner: the server greets first (ssh, svnserve); connect: the client speaks first (http). */
  greeting: 'tls' | 'banner' | 'connect';
}

const DEFAULTS: Record<string, Omit<RepoTarget, 'host'>> = {
  'https:': { port: 443, greeting: 'tls' },
  'http:': { port: 80, greeting: 'connect' },
  'ssh:': { port: 22, greeting: 'banner' },
  'svn:': { port: 3690, greeting: 'banner' },
  'svn+ssh:': { port: 22, greeting: 'banner' },
};
const SCP_LIKE = /^([^@/:]+)@([^/:]+):(.+)$/;

/** The network end of an address the workflow checks accepted; null for file:// (no network) and anything else. */
export function repoTargetOf(url: string): RepoTarget | null {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    const host = SCP_LIKE.exec(url)?.[2];
    return host ? { host, port: 22, greeting: 'banner' } : null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const defaults = DEFAULTS[parsed.protocol];
  if (!defaults || !parsed.hostname) return null;
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port ? Number(parsed.port) : defaults.port,
    greeting: defaults.greeting,
  };
}
