import { clip, clipBytes, fitCount, versionLabel, type MessageCommit, type MessageContent } from './message-content.ts';

/** WeCom robot caps (contract §G), in UTF-8 bytes. */
export const WECOM_MARKDOWN_CAP = 4096;
const NEWS_TITLE_CAP = 128;
const NEWS_DESCRIPTION_CAP = 512;

/** WeCom markdown reads `<@userid>` as a mention and `<font>` as a tag: user text gets look-alike brackets. */
function text(value: string): string {
  return value.replace(/</g, '＜').replace(/>/g, '＞');
}

/** Spaces and parentheses would end a markdown link early. */
function safeUrl(url: string): string {
  return url.replace(/[\s()]/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);
}

function link(label: string, url: string | null): string {
  return url ? `[${label}](${safeUrl(url)})` : '';
}

function commitLine(c: MessageCommit): string {
  const type = c.typeLabel ? `<font color="info">${text(c.typeLabel)}</font> ` : '';
  // An item pushed by another system has no id: its link (if any) is labelled 详情 after the subject.
  const id = c.shortId === null ? '' : c.url ? `${link(c.shortId, c.url)} ` : `\`${c.shortId}\` `;
  const details = c.shortId === null && c.url ? ` ${link('详情', c.url)}` : '';
  return `> ${id}${type}${text(c.subject)}${details} <font color="comment">${text(c.author)}</font>`;
}

function markdown(content: MessageContent, shown: number): string {
  const lines = [`### ${text(content.title)}`];
  const where = [content.workflowName ? text(content.workflowName) : null, content.branch ? `分支 ${text(content.branch)}` : null].filter(Boolean).join(' · ');
  lines.push(`**应用**：${text(content.appName)}${where ? `　**工作流**：${where}` : ''}`);
  const v = content.version;
  if (v) {
    lines.push(`**版本**：${text(versionLabel(v))} · ${text(v.platform)}${v.uploader ? ` · 上传人 ${text(v.uploader)}` : ''}`);
    if (v.description) lines.push(text(v.description));
    if (v.downloadUrl) lines.push(`${link('下载安装', v.downloadUrl)}　${link('扫码安装（二维码）', v.downloadUrl)}`);
  }
  if (content.commits.length) {
    lines.push(`**更新日志**（共 ${content.totalCommits} 条）`);
    for (const c of content.commits.slice(0, shown)) lines.push(commitLine(c));
    const rest = content.totalCommits - shown;
    if (rest > 0) lines.push(`…还有 ${rest} 条${content.moreUrl ? `，${link('查看全部', content.moreUrl)}` : ''}`);
  }
  return lines.join('\n');
}

/** A markdown message within 4096 bytes: commits are dropped from the end first, the rest is clipped last. */
export function wecomMarkdown(content: MessageContent) {
  const n = fitCount(content.commits.length, WECOM_MARKDOWN_CAP, (k) => Buffer.byteLength(markdown(content, k)));
  return { msgtype: 'markdown' as const, markdown: { content: clipBytes(markdown(content, n), WECOM_MARKDOWN_CAP) } };
}

/** A package without commits, with a page to open: one news article with the app icon. */
export function wecomNews(content: MessageContent) {
  const v = content.version;
  const url = v?.downloadUrl;
  if (!v || !url || content.commits.length) return null;
  const description = [v.description, `${v.platform}${v.uploader ? ` · 上传人 ${v.uploader}` : ''}`].filter(Boolean).join('\n');
  return {
    msgtype: 'news' as const,
    news: {
      articles: [
        {
          title: clipBytes(clip(`${content.appName} ${versionLabel(v)}`, 64), NEWS_TITLE_CAP),
          description: clipBytes(description, NEWS_DESCRIPTION_CAP),
          url,
          ...(content.iconUrl ? { picurl: content.iconUrl } : {}),
        },
      ],
    },
  };
}

/** The body sent to a WeCom robot: news for a package with an install page, else markdown. */
export function wecomBody(content: MessageContent) {
  return wecomNews(content) ?? wecomMarkdown(content);
}
