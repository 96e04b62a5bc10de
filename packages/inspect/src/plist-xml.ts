import type { Element } from '@xmldom/xmldom';
import type { PlistValue } from 'plist';
import { xmldomLib } from './lazy-require.ts';
import { PLIST_LIMITS, PlistLimitError, setEntry, ValueBudget, type PlistLimits } from './plist-limits.ts';
import { readSimpleXmlPlist } from './plist-xml-simple.ts';
import { assertXmlShape } from './xml-shape.ts';

/**
 * XML property lists, read with xmldom directly: the `plist` package's parser logs xmldom's complaints to
 * the console and rejects base64 with stray characters; uploads deserve neither.
 */
export class PlistXmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlistXmlError';
  }
}

const ELEMENT_NODE = 1;

function elementChildren(node: Element): Element[] {
  const children: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE) children.push(child as Element);
  }
  return children;
}

/** The text of a leaf, within the string limit. */
function leafText(node: Element, limits: PlistLimits): string {
  const text = node.textContent ?? '';
  if (text.length > limits.maxStringBytes) throw new PlistLimitError('string too long');
  return text;
}

function convert(node: Element, depth: number, limits: PlistLimits, budget: ValueBudget): PlistValue {
  budget.take();
  if (depth >= limits.maxDepth && (node.nodeName === 'dict' || node.nodeName === 'array'))
    throw new PlistLimitError('nesting too deep');
  switch (node.nodeName) {
    case 'dict': {
      const dict: { [key: string]: PlistValue } = {};
      const children = elementChildren(node);
      for (let i = 0; i + 1 < children.length; i += 2) {
        const key = children[i] as Element;
        if (key.nodeName !== 'key') throw new PlistXmlError('dict without key');
        budget.take();
        setEntry(dict, leafText(key, limits), convert(children[i + 1] as Element, depth + 1, limits, budget));
      }
      return dict;
    }
    case 'array':
      return elementChildren(node).map((child) => convert(child, depth + 1, limits, budget));
  }
  // Only leaves read their text: a container's textContent walks its whole subtree.
  const text = leafText(node, limits);
  switch (node.nodeName) {
    case 'string':
      return text;
    case 'integer':
    case 'real':
      return Number(text.trim());
    case 'true':
      return true;
    case 'false':
      return false;
    case 'date':
      return new Date(text.trim());
    case 'data':
      return new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'base64'));
    default:
      throw new PlistXmlError(`unexpected <${node.nodeName}>`);
  }
}

/**
 * Parses an XML plist document with xmldom; throws PlistXmlError (or xmldom's ParseError) when it is not one,
 * PlistLimitError past a limit: depth and element count are checked on the text before xmldom builds a tree.
 */
export function parseXmlPlistWithDom(xml: string, limits: PlistLimits = PLIST_LIMITS): PlistValue {
  // `<plist>` and the leaves (`<key>`, `<string>`...) are two more levels than the containers' nesting.
  assertXmlShape(xml, {
    maxDepth: limits.maxDepth + 2,
    maxElements: Math.min(limits.maxDomElements, limits.maxValues),
  });
  const document = new (xmldomLib().DOMParser)({ onError: () => undefined }).parseFromString(xml, 'text/xml');
  const root = document.documentElement;
  if (root?.nodeName !== 'plist') throw new PlistXmlError('no <plist> root');
  const [value] = elementChildren(root);
  if (!value) throw new PlistXmlError('empty plist');
  return convert(value, 0, limits, new ValueBudget(limits.maxValues));
}

/**
 * Parses an XML plist document; throws PlistXmlError (or xmldom's ParseError) when it is not one. Documents
 * as Apple's tools write them take the quick reader; anything unusual gets xmldom, with the same result.
 */
export function parseXmlPlist(xml: string, limits: PlistLimits = PLIST_LIMITS): PlistValue {
  return readSimpleXmlPlist(xml, limits) ?? parseXmlPlistWithDom(xml, limits);
}
