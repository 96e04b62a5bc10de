/**
 * Whether a host names this machine only (localhost, 127.0.0.0/8, ::1): a link to it opens on the computer that
 * shows it, never on a phone that scans it. `host` is a URL's hostname, so IPv6 comes in brackets.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '[::1]' || name === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** Whether an absolute link points at a loopback host; an unparsable link is not called one. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
