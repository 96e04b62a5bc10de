import { isRecord } from './envelope.ts';
import type { ImMention, LarkState } from './lark-state.ts';
import { IM_POST_TAGS, validateCard, validatePostBody } from './message-content.ts';

export const IM_TEXT_LIMIT_BYTES = 150 * 1024;
export const IM_RICH_LIMIT_BYTES = 30 * 1024;
export const IM_MSG_TYPES = [
  'text',
  'post',
  'image',
  'file',
  'audio',
  'media',
  'sticker',
  'interactive',
  'share_chat',
  'share_user',
  'system',
] as const;

export interface ContentError {
  code: number;
  msg: string;
}

const bad = (msg: string): ContentError => ({ code: 230001, msg: `invalid request param: ${msg}` });

export function cardError(reason: string): ContentError {
  return { code: 230099, msg: `Failed to create card content, ext=ErrCode: 200621; ErrMsg: ${reason}` };
}

/** `content` must be a JSON string valid for its msg_type, within the size caps (contract §C). */
export function validateImContent(msgType: unknown, content: unknown): ContentError | null {
  if (typeof msgType !== 'string' || !(IM_MSG_TYPES as readonly string[]).includes(msgType))
    return bad(`unsupported msg_type ${String(msgType)}`);
  if (typeof content !== 'string') return bad('content must be a string of serialized JSON');
  const bytes = Buffer.byteLength(content);
  if (msgType === 'text' && bytes > IM_TEXT_LIMIT_BYTES)
    return { code: 230025, msg: 'The message content is too long: text is limited to 150 KB' };
  if ((msgType === 'post' || msgType === 'interactive') && bytes > IM_RICH_LIMIT_BYTES)
    return { code: 230025, msg: `The message content is too long: ${msgType} is limited to 30 KB` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return msgType === 'interactive' ? cardError('card content is not valid JSON') : bad('content is not valid JSON');
  }
  if (!isRecord(parsed)) return bad('content must be a JSON object');
  const needs = (key: string, prefix?: string): ContentError | null => {
    const value = parsed[key];
    if (typeof value !== 'string' || value === '') return bad(`${msgType} content needs ${key}`);
    if (prefix && !value.startsWith(prefix))
      return {
        code: 230055,
        msg: `The type of file upload does not match the type of message being sent: ${key} ${value}`,
      };
    return null;
  };
  switch (msgType) {
    case 'text':
      return needs('text');
    case 'post': {
      if ('post' in parsed) return bad('im post content has no "post" wrapper');
      const error = validatePostBody(parsed, IM_POST_TAGS, true);
      return error ? bad(error) : null;
    }
    case 'image':
      return needs('image_key', 'img_');
    case 'file':
    case 'audio':
    case 'sticker':
    case 'media':
      return needs('file_key');
    case 'interactive': {
      const error = validateCard(parsed, true);
      return error ? cardError(error) : null;
    }
    case 'share_chat':
      return needs('chat_id', 'oc_');
    case 'share_user':
      return needs('user_id');
    default:
      return null;
  }
}

/** Replaces `<at user_id="…">name</at>` (text) and `at` nodes (post) with `@_user_N` keys, as the API echoes them. */
export function extractMentions(
  state: LarkState,
  msgType: string,
  content: string,
  tenantKey: string,
): { content: string; mentions: ImMention[] } {
  const mentions: ImMention[] = [];
  const add = (id: string, name: string): string => {
    if (id === 'all') return '@_all';
    const key = `@_user_${mentions.length + 1}`;
    mentions.push({ key, id, id_type: 'open_id', name: state.users.get(id)?.name ?? name, tenant_key: tenantKey });
    return key;
  };
  const parsed = JSON.parse(content) as Record<string, unknown>;
  if (msgType === 'text' && typeof parsed.text === 'string') {
    parsed.text = parsed.text.replace(
      /<at\s+user_id=\\?"([^"\\]+)\\?"\s*>([^<]*)<\/at>/g,
      (_m, id: string, name: string) => add(id, name),
    );
    return { content: JSON.stringify(parsed), mentions };
  }
  if (msgType === 'post') {
    for (const body of Object.values(parsed)) {
      if (!isRecord(body) || !Array.isArray(body.content)) continue;
      for (const paragraph of body.content as unknown[][]) {
        for (const node of paragraph) {
          if (isRecord(node) && node.tag === 'at' && typeof node.user_id === 'string')
            node.user_id = add(node.user_id, String(node.user_name ?? ''));
        }
      }
    }
    return { content: JSON.stringify(parsed), mentions };
  }
  return { content, mentions };
}
