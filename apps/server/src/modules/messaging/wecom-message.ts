import {
  clip,
  clipBytes,
  fitCount,
  listedCount,
  versionLabel,
  type MessageCommit,
  type MessageContent,
} from './message-content.ts';
import { markdownLink as link, messageLines } from './message-markdown.ts';

/** WeCom robot caps (contract §G), in UTF-8 bytes. */
export const WECOM_MARKDOWN_CAP = 4096;
const NEWS_TITLE_CAP = 128;
const NEWS_DESCRIPTION_CAP = 512;

/** WeCom markdown reads `<@userid>` as a mention and `<font>` as a tag: user text gets look-alike brackets. */
function text(value: string): string {
  return value.replace(/</g, '＜').replace(/>/g, '＞');
}

function commitLine(c: MessageCommit): string {
  const type = c.typeLabel ? `<font color="info">${text(c.typeLabel)}</font> ` : '';
  // An item pushed by another system has no id: its link (if any) is labelled 详情 after the subject.
  const id = c.shortId === null ? '' : c.url ? `${link(c.shortId, c.url)} ` : `\`${c.shortId}\` `;
  const details = c.shortId === null && c.url ? ` ${link('详情', c.url)}` : '';
  return `> ${id}${type}${text(c.subject)}${details} <font color="comment">${text(c.author)}</font>`;
}

function markdown(content: MessageContent, shown: number): string {
  const lines = messageLines(content, shown, { text, commitLine });
  const title = `### ${text(content.title)}`;
  // A package alert (issue 19) is messageLines' first line and comes before the title: what the chat list shows.
  const marked = Boolean(content.version?.alerts.length);
  return (marked ? [lines[0], title, ...lines.slice(1)] : [title, ...lines]).join('\n');
}

/** A markdown message within 4096 bytes: commits are dropped from the end first, the rest is clipped last. */
export function wecomMarkdown(content: MessageContent) {
  const n = fitCount(listedCount(content), WECOM_MARKDOWN_CAP, (k) => Buffer.byteLength(markdown(content, k)));
  return { msgtype: 'markdown' as const, markdown: { content: clipBytes(markdown(content, n), WECOM_MARKDOWN_CAP) } };
}

/** A package without commits, with a page to open: one news article with the app icon (not for feedback on it). */
export function wecomNews(content: MessageContent) {
  const v = content.version;
  const url = v?.downloadUrl;
  // A news card has no room for a package alert or a list of changes: such a build goes as markdown.
  if (!v || !url || content.commits.length || content.changes || v.alerts.length || content.feedback) return null;
  const description = [v.description, `${v.platform}${v.uploader ? ` · 上传人 ${v.uploader}` : ''}`]
    .filter(Boolean)
    .join('\n');
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
