import {
  alertLine,
  shareAmong,
  versionLabel,
  type MessageChanges,
  type MessageCommit,
  type MessageContent,
} from './message-content.ts';

/** How one platform's markdown writes user text and a commit line. */
export interface MarkdownDialect {
  /** User text made safe for the platform (no mentions or tags). */
  text(value: string): string;
  commitLine(c: MessageCommit): string;
}

/** Spaces and parentheses would end a markdown link early. */
function safeUrl(url: string): string {
  return url.replace(/[\s()]/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);
}

/** A markdown link, or '' without a URL. */
export function markdownLink(label: string, url: string | null): string {
  return url ? `[${label}](${safeUrl(url)})` : '';
}

/** A version's changes (issue 19): per workflow its newest entries, `shown` in all, then the link to the full list. */
function changesLines(changes: MessageChanges, shown: number, { text, commitLine }: MarkdownDialect): string[] {
  const lines = [`**本版本更新**（相对 ${text(changes.since)}，共 ${changes.total} 条）`];
  const given = shareAmong(
    changes.groups.map((g) => g.entries.length),
    shown,
  );
  let listed = 0;
  for (const [i, group] of changes.groups.entries()) {
    lines.push(`**${text(group.tabName)}**（${group.total} 条）`);
    for (const entry of group.entries.slice(0, given[i])) lines.push(commitLine(entry));
    listed += given[i] ?? 0;
  }
  if (changes.url) lines.push(markdownLink(`查看全部 ${changes.total} 条变更`, changes.url));
  else if (changes.total > listed) lines.push(`…还有 ${changes.total - listed} 条`);
  return lines;
}

/**
 * The lines Lark's card and WeCom's markdown share: app and workflow, version with install links, then `shown` list
 * lines — the items first, then the entries of the version's changes.
 */
export function messageLines(content: MessageContent, shown: number, { text, commitLine }: MarkdownDialect): string[] {
  const lines: string[] = [];
  // A build that crossed its app's package thresholds says so first (issue 19).
  const alert = content.version ? alertLine(content.version.alerts) : null;
  if (alert) lines.push(`**${text(alert)}**`);
  const where = [
    content.workflowName ? text(content.workflowName) : null,
    content.branch ? `分支 ${text(content.branch)}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  lines.push(`**应用**：${text(content.appName)}${where ? `　**工作流**：${where}` : ''}`);
  const v = content.version;
  if (v) {
    lines.push(
      `**版本**：${text(versionLabel(v))} · ${text(v.platform)}${v.uploader ? ` · 上传人 ${text(v.uploader)}` : ''}`,
    );
    if (v.description && !content.feedback) lines.push(text(v.description));
    if (v.downloadUrl && !content.feedback)
      lines.push(`${markdownLink('安装此版本', v.downloadUrl)}　${markdownLink('扫码安装（二维码）', v.downloadUrl)}`);
  }
  const f = content.feedback;
  if (f) {
    lines.push(`**测试反馈**：${text(f.summary)}`);
    if (f.text) lines.push(text(f.text));
    lines.push(`**设备**：${text(f.device)}　**提交人**：${text(f.sender)}`);
    if (f.url) lines.push(markdownLink('在缺陷列表中查看', f.url));
  }
  if (content.changes)
    lines.push(...changesLines(content.changes, Math.max(0, shown - content.commits.length), { text, commitLine }));
  if (content.commits.length) {
    lines.push(`**更新日志**（共 ${content.totalCommits} 条）`);
    for (const c of content.commits.slice(0, shown)) lines.push(commitLine(c));
    const rest = content.totalCommits - shown;
    if (rest > 0)
      lines.push(`…还有 ${rest} 条${content.moreUrl ? `，${markdownLink('查看全部', content.moreUrl)}` : ''}`);
  }
  return lines;
}
