/** The warning beside a QR code whose link only this machine can open (console and install page alike). */
export const loopbackQrText = {
  title: '二维码中的地址是本机地址，手机无法打开',
  description: '请管理员把服务的 PUBLIC_URL 设置为手机能访问的地址后重启服务，或用局域网地址打开本页。',
  check: '在 设置 → 系统 中检查站点地址',
} as const;

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
