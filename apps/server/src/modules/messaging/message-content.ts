import { COMMIT_TYPE_LABELS, shortCommitId } from '@release/contract';

/** What a push says, before it is rendered for Lark or WeCom: plain values, already cut to display lengths. */
export interface MessageContent {
  title: string;
  appName: string;
  /** Absolute URL of the app icon (WeCom news shows it), or null. */
  iconUrl: string | null;
  workflowName: string | null;
  branch: string | null;
  version: MessageVersion | null;
  commits: MessageCommit[];
  /** How many items the push covers (more than `commits.length` when the caller already capped the list). */
  totalCommits: number;
  /** The web page with the full list, for the "…还有 N 条" line. */
  moreUrl: string | null;
  /** A tester's feedback on `version` (issue 20): what the group robot is told of the new bug. */
  feedback?: MessageFeedback | null;
  /** What changed since the build before `version` (issue 19): the announcement of a version lists it. */
  changes?: MessageChanges | null;
}

/** A version's changes since the previous build of its platform, grouped by workflow as the console lists them. */
export interface MessageChanges {
  /** The build compared with: "1.5.0 (310)". */
  since: string;
  /** All changes of all groups (each group lists at most its newest SHORT_CHANGES_MAX_ENTRIES). */
  total: number;
  groups: Array<{ tabName: string; total: number; entries: MessageCommit[] }>;
  /** The full list in the console (its 变更 drawer), for "查看全部 N 条变更". */
  url: string | null;
}

export interface MessageFeedback {
  /** The bug's title, [测试反馈] and the first line. */
  summary: string;
  /** The rest of what the tester wrote, cut for a chat. */
  text: string;
  device: string;
  sender: string;
  /** The app's page in the console, where the tracker shows the bug. */
  url: string | null;
}

export interface MessageVersion {
  platform: string;
  appVersion: string | null;
  build: string | null;
  indexNo: number;
  description: string;
  uploader: string | null;
  /** This build's own install page (`/package/<path>?id=<id>`: its QR code, note and details). */
  downloadUrl: string | null;
  /** The package thresholds it crossed (issue 19): said on the message's first line. */
  alerts: string[];
}

/** The first line of a push about a build that crossed its app's package thresholds. */
export function alertLine(alerts: string[]): string | null {
  return alerts.length > 0 ? `⚠️ 安装包提醒：${alerts.join('；')}` : null;
}

export interface MessageCommit {
  /** null: an item pushed by another system, which has no id worth showing. */
  shortId: string | null;
  typeLabel: string | null;
  subject: string;
  author: string;
  time: number;
  url: string | null;
}

/** The cut the send previews of the web show too (contract's clipText). */
export { clipText as clip } from '@release/contract';

/** The longest prefix of `text` that takes at most `maxBytes` in UTF-8, never splitting a character. */
export function clipBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let out = '';
  let used = 0;
  const ellipsis = Buffer.byteLength('…');
  for (const ch of text) {
    const size = Buffer.byteLength(ch);
    if (used + size + ellipsis > maxBytes) break;
    out += ch;
    used += size;
  }
  return `${out}…`;
}

const HEADER = /^\s*([a-zA-Z]+)(?:\([^)]*\))?!?\s*[:：]\s*(.*)$/;

/** `feat(login): 支持飞书` → label 新增/变更 and subject 支持飞书; other first lines stay as written. */
export function describeCommit(message: string, isPackage: boolean): { typeLabel: string | null; subject: string } {
  const first = message.replace(/\r\n/g, '\n').split('\n')[0]?.trim() ?? '';
  const match = HEADER.exec(first);
  const label = match?.[1] ? COMMIT_TYPE_LABELS[match[1].toLowerCase()] : undefined;
  if (match && label) return { typeLabel: label, subject: (match[2] ?? '').trim() };
  return { typeLabel: isPackage ? null : (COMMIT_TYPE_LABELS.other ?? null), subject: first };
}

/** SPEC §9: 7 characters of a commit id; none for items pushed by other systems. */
export const shortId = shortCommitId;

/** `2.1.0 (210)`: the version's name and build number; a web build, which has neither, is 第 N 版 as on its page. */
export function versionLabel(v: Pick<MessageVersion, 'appVersion' | 'build' | 'indexNo'>): string {
  return [v.appVersion ?? `第 ${v.indexNo} 版`, v.build ? `(${v.build})` : ''].filter(Boolean).join(' ');
}

/** How many list lines a message can hold: its items, or the entries of its changes. */
export function listedCount(content: MessageContent): number {
  return content.commits.length + (content.changes?.groups.reduce((sum, g) => sum + g.entries.length, 0) ?? 0);
}

/**
 * `shown` entries shared among groups of these sizes, round by round (each group its first, then each its second…),
 * so a cut message still names the newest change of every workflow. More `shown`, never fewer per group.
 */
export function shareAmong(sizes: number[], shown: number): number[] {
  const given = sizes.map(() => 0);
  let left = shown;
  for (let round = 0; left > 0 && sizes.some((size, i) => given[i] !== size); round++)
    for (const [i, size] of sizes.entries())
      if (left > 0 && round < size) {
        given[i] = round + 1;
        left -= 1;
      }
  return given;
}

/**
 * The largest n (0…count) for which `render(n)` fits in `cap` bytes. Sizes grow with n, so a binary search
 * finds it; the final check is exact, so a render that is not quite monotonic still never exceeds the cap.
 */
export function fitCount(count: number, cap: number, size: (n: number) => number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (size(mid) <= cap) low = mid;
    else high = mid - 1;
  }
  while (low > 0 && size(low) > cap) low -= 1;
  return low;
}
