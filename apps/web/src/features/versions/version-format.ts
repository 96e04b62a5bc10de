import dayjs from 'dayjs';
import { kindOfFileName } from '@release/contract/install-page';

/** SPEC §9 dates: 今天 / 昨天 / 前天 plus the time, older ones with their date. */
export function formatVersionTime(time: number, now: number = Date.now()): string {
  const day = dayjs(time).startOf('day');
  const daysAgo = dayjs(now).startOf('day').diff(day, 'day');
  const clock = dayjs(time).format('HH:mm');
  if (daysAgo === 0) return `今天 ${clock}`;
  if (daysAgo === 1) return `昨天 ${clock}`;
  if (daysAgo === 2) return `前天 ${clock}`;
  return dayjs(time).format(dayjs(time).year() === dayjs(now).year() ? 'MM-DD HH:mm' : 'YYYY-MM-DD HH:mm');
}

/** Package size in MB, two decimals (SPEC §2 package list). */
export function formatSize(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return bytes > 0 && mb < 0.01 ? '<0.01 MB' : `${mb.toFixed(2)} MB`;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Space in the unit that fits (1,024 steps): "512 B", "3.4 KB", "12.5 MB", "1.02 GB" — the removal confirm, storage. */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : value < 10 ? 2 : value < 100 ? 1 : 0;
  return `${value.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

/** "1.2.3 (45)"; just one of them when the other is missing; "-" for packages without a version. */
export function versionText(v: { appVersion: string | null; build: string | null }): string {
  if (v.appVersion && v.build) return `${v.appVersion} (${v.build})`;
  return v.appVersion ?? v.build ?? '-';
}

/**
 * What names a build: its version and build number, else (web zips, html pages, which carry none) its place in the
 * app's sequence of uploads, 第 N 版 — never a file name such as index.html. Its upload time is shown beside it.
 */
export function versionTitle(v: { appVersion: string | null; build: string | null; indexNo: number }): string {
  return v.appVersion || v.build ? versionText(v) : `第 ${v.indexNo} 版`;
}

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://x').pathname.toLowerCase();
  } catch {
    return url.toLowerCase();
  }
}

/** A web package that is one html page: its name or its url (ignoring any signature query) is an html file's. */
export function isHtmlPackage(v: { fileName: string; cdnUrl?: string }): boolean {
  return (
    kindOfFileName(v.fileName) === 'html' || (v.cdnUrl !== undefined && kindOfFileName(pathOf(v.cdnUrl)) === 'html')
  );
}

/** SPEC §5: re-signing is offered only for packages whose url contains .ipa. */
export function isIpaPackage(v: { fileName: string; cdnUrl: string }): boolean {
  return v.cdnUrl.toLowerCase().includes('.ipa') || v.fileName.toLowerCase().endsWith('.ipa');
}
