import { isRecord } from './envelope.ts';

/** Post node tags the custom bot accepts; im/v1 accepts a few more and per-node `style`. */
export const BOT_POST_TAGS = ['text', 'a', 'at', 'img'] as const;
export const IM_POST_TAGS = ['text', 'a', 'at', 'img', 'media', 'emotion', 'hr', 'code_block', 'md'] as const;
const POST_LOCALES = ['zh_cn', 'en_us', 'ja_jp'];

function validateNode(node: unknown, tags: readonly string[], allowStyle: boolean): string | null {
  if (!isRecord(node) || typeof node.tag !== 'string') return 'post node without tag';
  if (!tags.includes(node.tag)) return `post node tag ${node.tag} is not supported`;
  if ('style' in node && !allowStyle) return 'post node style is not supported here';
  switch (node.tag) {
    case 'text':
      return typeof node.text === 'string' ? null : 'text node needs text';
    case 'a':
      return typeof node.text === 'string' && typeof node.href === 'string' ? null : 'a node needs text and href';
    case 'at':
      return typeof node.user_id === 'string' ? null : 'at node needs user_id';
    case 'img':
      return typeof node.image_key === 'string' ? null : 'img node needs image_key';
    case 'media':
      return typeof node.file_key === 'string' ? null : 'media node needs file_key';
    case 'emotion':
      return typeof node.emoji_type === 'string' ? null : 'emotion node needs emoji_type';
    case 'code_block':
    case 'md':
      return typeof node.text === 'string' ? null : `${node.tag} node needs text`;
    default:
      return null;
  }
}

/** `{zh_cn:{title?,content:[[node…]…]}, en_us?…}`: at least one language, paragraphs of valid nodes. */
export function validatePostBody(post: unknown, tags: readonly string[], allowStyle: boolean): string | null {
  if (!isRecord(post)) return 'post content must be an object';
  const languages = Object.keys(post).filter((k) => POST_LOCALES.includes(k));
  if (languages.length === 0) return 'post needs zh_cn or en_us';
  for (const language of languages) {
    const body = post[language];
    if (!isRecord(body) || !Array.isArray(body.content))
      return `post.${language}.content must be an array of paragraphs`;
    if (body.title !== undefined && typeof body.title !== 'string') return `post.${language}.title must be a string`;
    for (const paragraph of body.content) {
      if (!Array.isArray(paragraph)) return 'each paragraph must be an array of nodes';
      for (const node of paragraph) {
        const error = validateNode(node, tags, allowStyle);
        if (error) return error;
      }
    }
  }
  return null;
}

/** Card shapes: JSON 2.0, v1 (header/elements), a template, or (im only) a card entity id. Returns an error or null. */
export function validateCard(card: unknown, allowCardId: boolean): string | null {
  if (!isRecord(card)) return 'card must be an object';
  if (card.type === 'template') {
    const data = card.data;
    return isRecord(data) && typeof data.template_id === 'string' && data.template_id !== ''
      ? null
      : 'template card needs data.template_id';
  }
  if (card.type === 'card') {
    if (!allowCardId) return 'card entities cannot be sent by a custom bot';
    return isRecord(card.data) && typeof card.data.card_id === 'string' ? null : 'card entity needs data.card_id';
  }
  if (card.schema === '2.0') {
    return isRecord(card.body) && Array.isArray(card.body.elements) ? null : 'a 2.0 card needs body.elements';
  }
  if (card.elements !== undefined && !Array.isArray(card.elements)) return 'card.elements must be an array';
  if (card.elements === undefined && card.header === undefined && card.i18n_elements === undefined)
    return 'card needs header or elements';
  return null;
}

/** Text and title values a keyword filter looks at. */
export function textsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') return out;
  if (Array.isArray(value)) {
    for (const item of value) textsOf(item, out);
    return out;
  }
  if (!isRecord(value)) return out;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' && (key === 'text' || key === 'title' || key === 'content')) out.push(item);
    else textsOf(item, out);
  }
  return out;
}

export function isUpdateMulti(card: unknown): boolean {
  if (!isRecord(card)) return false;
  if (card.type === 'template' || card.type === 'card') return true;
  return isRecord(card.config) && card.config.update_multi === true;
}
