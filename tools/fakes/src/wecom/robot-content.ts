import { createHash } from 'node:crypto';
import type { WecomState } from './wecom-state.ts';

/** Byte caps of the group robot (contract §G). */
export const TEXT_MAX_BYTES = 2048;
export const MARKDOWN_MAX_BYTES = 4096;
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const NEWS_MAX_ARTICLES = 8;
export const NEWS_TITLE_MAX_BYTES = 128;
export const NEWS_DESCRIPTION_MAX_BYTES = 512;

export type ContentCheck =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; errcode: number; errmsg: string; reason: string };

const bad = (errcode: number, errmsg: string, reason = errmsg): ContentCheck => ({
  ok: false,
  errcode,
  errmsg,
  reason,
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Cuts a string to at most `max` UTF-8 bytes without splitting a character (what WeCom does to news fields). */
export function cutBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (Buffer.byteLength(out + ch) > max) break;
    out += ch;
  }
  return out;
}

function checkContent(part: unknown, max: number, name: string): ContentCheck | null {
  if (!isRecord(part)) return bad(40058, `missing ${name}`, `${name} object is required`);
  if (typeof part.content !== 'string' || part.content === '') return bad(44004, 'empty content');
  const bytes = Buffer.byteLength(part.content);
  if (bytes > max)
    return bad(45002, `content exceed max length ${max}`, `${name}.content is ${bytes} bytes, cap ${max}`);
  return null;
}

function isJpegOrPng(data: Buffer): boolean {
  const png = data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
  return png || jpeg;
}

function checkImage(image: unknown): ContentCheck | null {
  if (!isRecord(image) || typeof image.base64 !== 'string' || typeof image.md5 !== 'string')
    return bad(40058, 'missing image.base64 or image.md5');
  const data = Buffer.from(image.base64, 'base64');
  if (data.length === 0) return bad(40058, 'invalid image base64');
  if (data.length > IMAGE_MAX_BYTES) return bad(40009, 'invalid image size', `image is ${data.length} bytes, cap 2 MB`);
  if (!isJpegOrPng(data)) return bad(40005, 'invalid file type', 'image must be JPG or PNG');
  if (createHash('md5').update(data).digest('hex') !== image.md5.toLowerCase())
    return bad(301019, 'md5 not match', 'image.md5 is not the md5 of the decoded bytes');
  return null;
}

/** 1–8 articles with title and url; over-long titles and descriptions are cut, not refused. */
function checkNews(news: unknown): ContentCheck | { articles: Array<Record<string, unknown>> } {
  if (!isRecord(news) || !Array.isArray(news.articles) || news.articles.length === 0)
    return bad(40058, 'missing news.articles', 'news needs 1–8 articles');
  if (news.articles.length > NEWS_MAX_ARTICLES)
    return bad(45008, 'article size out of limit', `${news.articles.length} articles, at most 8`);
  const articles: Array<Record<string, unknown>> = [];
  for (const article of news.articles) {
    if (!isRecord(article) || typeof article.title !== 'string' || article.title === '')
      return bad(40058, 'missing article title');
    if (typeof article.url !== 'string' || article.url === '') return bad(40058, 'missing article url');
    const cut: Record<string, unknown> = { ...article, title: cutBytes(article.title, NEWS_TITLE_MAX_BYTES) };
    if (typeof article.description === 'string')
      cut.description = cutBytes(article.description, NEWS_DESCRIPTION_MAX_BYTES);
    articles.push(cut);
  }
  return { articles };
}

function checkMedia(
  state: WecomState,
  key: string,
  part: unknown,
  type: 'file' | 'voice',
  now: number,
): ContentCheck | null {
  const mediaId = isRecord(part) ? part.media_id : undefined;
  if (typeof mediaId !== 'string' || mediaId === '') return bad(40058, `missing ${type}.media_id`);
  const media = state.media.get(mediaId);
  if (!media || media.key !== key || media.type !== type || media.expiresAt <= now) {
    return bad(
      40007,
      'invalid media_id',
      media ? 'media_id belongs to another robot, another type, or has expired' : 'unknown media_id',
    );
  }
  return null;
}

/** Checks one `webhook/send` body as WeCom does; on success returns the body as the group would show it. */
export function checkRobotMessage(
  state: WecomState,
  key: string,
  body: Record<string, unknown>,
  now: number,
): ContentCheck {
  const type = body.msgtype;
  switch (type) {
    case 'text':
      return checkContent(body.text, TEXT_MAX_BYTES, 'text') ?? { ok: true, body };
    case 'markdown':
      return checkContent(body.markdown, MARKDOWN_MAX_BYTES, 'markdown') ?? { ok: true, body };
    case 'markdown_v2':
      return checkContent(body.markdown_v2, MARKDOWN_MAX_BYTES, 'markdown_v2') ?? { ok: true, body };
    case 'image':
      return checkImage(body.image) ?? { ok: true, body };
    case 'news': {
      const news = checkNews(body.news);
      return 'articles' in news ? { ok: true, body: { ...body, news: { articles: news.articles } } } : news;
    }
    case 'file':
    case 'voice':
      return checkMedia(state, key, body[type], type, now) ?? { ok: true, body };
    case 'template_card': {
      const card = body.template_card;
      if (!isRecord(card) || (card.card_type !== 'text_notice' && card.card_type !== 'news_notice'))
        return bad(40058, 'invalid template_card.card_type');
      return { ok: true, body };
    }
    default:
      return bad(40008, 'invalid message type', `msgtype ${String(type)} is not supported`);
  }
}
