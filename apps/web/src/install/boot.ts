import type { InstallBoot } from '@release/contract/install-page';

export type { InstallBoot };

/** The server's word on this link, written into install.html (see InstallBoot): the password box can be drawn before any call. */
export function readBoot(): InstallBoot | null {
  const element = document.getElementById('install-boot');
  if (!element?.textContent) return null;
  try {
    const boot = JSON.parse(element.textContent) as InstallBoot;
    return typeof boot === 'object' && boot !== null && typeof boot.link === 'string' ? boot : null;
  } catch {
    return null;
  }
}
