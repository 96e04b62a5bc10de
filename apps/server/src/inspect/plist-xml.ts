import { DOMParser, type Element } from '@xmldom/xmldom';
import type { PlistValue } from 'plist';
import { readSimpleXmlPlist } from './plist-xml-simple.ts';

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

const MAX_DEPTH = 256;
const ELEMENT_NODE = 1;

function elementChildren(node: Element): Element[] {
  const children: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE) children.push(child as Element);
  }
  return children;
}

function convert(node: Element, depth: number): PlistValue {
  if (depth > MAX_DEPTH) throw new PlistXmlError('nesting too deep');
  const text = node.textContent ?? '';
  switch (node.nodeName) {
    case 'dict': {
      const dict: { [key: string]: PlistValue } = {};
      const children = elementChildren(node);
      for (let i = 0; i + 1 < children.length; i += 2) {
        const key = children[i] as Element;
        if (key.nodeName !== 'key') throw new PlistXmlError('dict without key');
        dict[key.textContent ?? ''] = convert(children[i + 1] as Element, depth + 1);
      }
      return dict;
    }
    case 'array':
      return elementChildren(node).map((child) => convert(child, depth + 1));
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

/** Parses an XML plist document with xmldom; throws PlistXmlError (or xmldom's ParseError) when it is not one. */
export function parseXmlPlistWithDom(xml: string): PlistValue {
  const document = new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml');
  const root = document.documentElement;
  if (!root || root.nodeName !== 'plist') throw new PlistXmlError('no <plist> root');
  const [value] = elementChildren(root);
  if (!value) throw new PlistXmlError('empty plist');
  return convert(value, 0);
}

/**
 * Parses an XML plist document; throws PlistXmlError (or xmldom's ParseError) when it is not one. Documents
 * as Apple's tools write them take the quick reader; anything unusual gets xmldom, with the same result.
 */
export function parseXmlPlist(xml: string): PlistValue {
  return readSimpleXmlPlist(xml) ?? parseXmlPlistWithDom(xml);
}
