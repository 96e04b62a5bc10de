import { clip, fitCount, listedCount, type MessageCommit, type MessageContent } from './message-content.ts';
import { markdownLink as link, messageLines } from './message-markdown.ts';

/** Lark's caps (contract §B, §C), taken as decimal kilobytes so either reading of "KB" holds. */
export const LARK_WEBHOOK_BODY_CAP = 20_000;
export const LARK_IM_CONTENT_CAP = 30_000;
/** Room left in a webhook body for `timestamp` and `sign` (a 44-character base64 HMAC). */
const SIGNATURE_ALLOWANCE = 96;

/** Lark card markdown: `<` starts a mention (`<at id=all>`) or a tag, so user text never carries one. */
function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function commitLine(c: MessageCommit): string {
  // An item pushed by another system has no id: its link (if any) is labelled 详情 after the subject.
  const id = c.shortId === null ? '' : c.url ? `${link(c.shortId, c.url)} ` : `${c.shortId} `;
  const details = c.shortId === null && c.url ? ` ${link('详情', c.url)}` : '';
  const type = c.typeLabel ? `【${text(c.typeLabel)}】` : '';
  return `- ${id}${type}${text(c.subject)}${details} — ${text(c.author)}`;
}

function markdown(content: MessageContent, shown: number): string {
  return messageLines(content, shown, { text, commitLine }).join('\n');
}

/**
 * A JSON 2.0 card: header with the title (and the app icon as its `custom_icon` when Lark gave us an
 * image_key for it), one markdown element with the app, version and commit list.
 */
export function larkCard(content: MessageContent, shown = listedCount(content), iconKey: string | null = null) {
  return {
    schema: '2.0',
    config: { update_multi: true },
    header: {
      // A build that crossed its app's package thresholds (issue 19) says so in the header, the details on the first line.
      title: {
        tag: 'plain_text',
        content: clip(content.version?.alerts.length ? `安装包提醒 · ${content.title}` : content.title, 100),
      },
      template: content.version?.alerts.length
        ? 'red'
        : content.feedback
          ? 'orange'
          : content.version && !content.commits.length
            ? 'green'
            : 'blue',
      ...(iconKey ? { icon: { tag: 'custom_icon', img_key: iconKey } } : {}),
    },
    body: { elements: [{ tag: 'markdown', content: markdown(content, shown) }] },
  };
}

/** The custom-bot webhook body (without timestamp/sign), cut to fit 20 KB with room for the signature. */
export function larkWebhookBody(content: MessageContent, iconKey: string | null = null) {
  const body = (n: number) => ({ msg_type: 'interactive', card: larkCard(content, n, iconKey) });
  const n = fitCount(listedCount(content), LARK_WEBHOOK_BODY_CAP - SIGNATURE_ALLOWANCE, (k) =>
    Buffer.byteLength(JSON.stringify(body(k))),
  );
  return body(n);
}

/** The im/v1 `content` string of an interactive message, cut to fit 30 KB. */
export function larkImContent(content: MessageContent, iconKey: string | null = null): string {
  const n = fitCount(listedCount(content), LARK_IM_CONTENT_CAP, (k) =>
    Buffer.byteLength(JSON.stringify(larkCard(content, k, iconKey))),
  );
  return JSON.stringify(larkCard(content, n, iconKey));
}
