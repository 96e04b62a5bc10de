import type { PlistValue } from 'plist';
import { PLIST_LIMITS, PlistLimitError, setEntry, ValueBudget, type PlistLimits } from './plist-limits.ts';

/**
 * A reader for XML property lists exactly as Xcode and Apple's tools write them (Info.plist, the plist inside
 * a provisioning profile): prolog, `<plist>`, the plist elements without attributes, the five XML entities
 * and character references. It gives the value xmldom's tree would give, in a fraction of the time of a cold
 * xmldom; anything else (CDATA, comments inside text, attributes, mixed content, `\r`, unknown entities,
 * mismatched tags, a second value) answers `undefined`, and the caller parses the document with xmldom.
 * A document past the limits (depth, values, string length) is refused here with PlistLimitError.
 */

const TAG = /<([a-z]+)(\/?)>/y;
const PLIST_START = /<plist(\s[^<>]*)?>/y;
const SPACE = /[ \t\n]*/y;
const ENTITY = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(lt|gt|amp|quot|apos));/g;
const UNWANTED_TEXT = /[\x00-\x08\x0b-\x1f]|]]>/;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Thrown (never out of this module) when the document needs the full XML parser. */
class NotSimple extends Error {}

function decodeReference(
  _match: string,
  hex: string | undefined,
  decimal: string | undefined,
  name: string | undefined,
): string {
  if (name) return NAMED[name] ?? '';
  const code = hex ? parseInt(hex, 16) : Number(decimal);
  if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff)
    throw new NotSimple();
  return String.fromCodePoint(code);
}

function decodeEntities(raw: string): string {
  if (UNWANTED_TEXT.test(raw)) throw new NotSimple();
  if (!raw.includes('&')) return raw;
  // An `&` that does not start one of the references above is xmldom's business.
  if (raw.split('&').length - 1 !== (raw.match(ENTITY)?.length ?? 0)) throw new NotSimple();
  return raw.replace(ENTITY, decodeReference);
}

class Reader {
  at = 0;

  private readonly budget: ValueBudget;

  constructor(
    private readonly xml: string,
    private readonly limits: PlistLimits,
  ) {
    this.budget = new ValueBudget(limits.maxValues);
  }

  /** Whitespace, comments, processing instructions and a DOCTYPE without internal subset. */
  skipMisc(allowProlog: boolean): void {
    for (;;) {
      SPACE.lastIndex = this.at;
      SPACE.test(this.xml);
      this.at = SPACE.lastIndex;
      const end = this.xml.startsWith('<!--', this.at)
        ? this.xml.indexOf('-->', this.at + 4) + 3
        : allowProlog
          ? this.prologEnd()
          : -1;
      if (end <= this.at) return;
      this.at = end;
    }
  }

  private prologEnd(): number {
    if (this.xml.startsWith('<?', this.at)) {
      const end = this.xml.indexOf('?>', this.at + 2);
      return end < 0 ? -1 : end + 2;
    }
    if (!this.xml.startsWith('<!DOCTYPE', this.at)) return -1;
    const end = this.xml.indexOf('>', this.at);
    if (end < 0 || this.xml.lastIndexOf('[', end) > this.at) throw new NotSimple();
    return end + 1;
  }

  expect(text: string): void {
    if (!this.xml.startsWith(text, this.at)) throw new NotSimple();
    this.at += text.length;
  }

  /** `<name>` or `<name/>`: the name and whether the element is empty. */
  tag(): { name: string; empty: boolean } {
    TAG.lastIndex = this.at;
    const match = TAG.exec(this.xml);
    if (!match) throw new NotSimple();
    this.at = TAG.lastIndex;
    return { name: match[1] as string, empty: match[2] === '/' };
  }

  /** The text up to `</name>`, entities decoded. */
  text(name: string, empty: boolean): string {
    if (empty) return '';
    const end = this.xml.indexOf('<', this.at);
    if (end < 0) throw new NotSimple();
    if (end - this.at > this.limits.maxStringBytes) throw new PlistLimitError('string too long');
    const raw = this.xml.slice(this.at, end);
    this.at = end;
    this.expect(`</${name}>`);
    return decodeEntities(raw);
  }

  value(depth: number): PlistValue {
    this.budget.take();
    const { name, empty } = this.tag();
    switch (name) {
      case 'dict':
        this.enter(depth);
        return empty ? {} : this.dict(depth);
      case 'array':
        this.enter(depth);
        return empty ? [] : this.array(depth);
      case 'string':
        return this.text(name, empty);
      case 'integer':
      case 'real':
        return Number(this.text(name, empty).trim());
      case 'true':
      case 'false':
        this.text(name, empty);
        return name === 'true';
      case 'date':
        return new Date(this.text(name, empty).trim());
      case 'data':
        return new Uint8Array(Buffer.from(this.text(name, empty).replace(/\s+/g, ''), 'base64'));
      default:
        throw new NotSimple();
    }
  }

  private enter(depth: number): void {
    if (depth >= this.limits.maxDepth) throw new PlistLimitError('nesting too deep');
  }

  private dict(depth: number): PlistValue {
    const dict: { [key: string]: PlistValue } = {};
    for (;;) {
      this.skipMisc(false);
      if (this.xml.startsWith('</dict>', this.at)) break;
      const key = this.tag();
      if (key.name !== 'key') throw new NotSimple();
      this.budget.take();
      const name = this.text('key', key.empty);
      this.skipMisc(false);
      // A key without a value is dropped, as the tree reading does.
      if (this.xml.startsWith('</dict>', this.at)) break;
      setEntry(dict, name, this.value(depth + 1));
    }
    this.at += '</dict>'.length;
    return dict;
  }

  private array(depth: number): PlistValue[] {
    const items: PlistValue[] = [];
    for (;;) {
      this.skipMisc(false);
      if (this.xml.startsWith('</array>', this.at)) break;
      items.push(this.value(depth + 1));
    }
    this.at += '</array>'.length;
    return items;
  }
}

/** The document's value, or undefined when it is not in the simple form described above. */
export function readSimpleXmlPlist(xml: string, limits: PlistLimits = PLIST_LIMITS): PlistValue | undefined {
  if (xml.includes('\r')) return undefined;
  const reader = new Reader(xml, limits);
  try {
    reader.skipMisc(true);
    PLIST_START.lastIndex = reader.at;
    const start = PLIST_START.exec(xml);
    if (!start || start[0].endsWith('/>')) return undefined;
    reader.at = PLIST_START.lastIndex;
    reader.skipMisc(false);
    const value = reader.value(0);
    reader.skipMisc(false);
    reader.expect('</plist>');
    reader.skipMisc(false);
    return reader.at === xml.length ? value : undefined;
  } catch (error) {
    if (error instanceof NotSimple) return undefined;
    throw error;
  }
}
