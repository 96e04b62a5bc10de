import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLIST_LIMITS, PlistLimitError } from './plist-limits.ts';
import { parsePlistDict } from './plist.ts';
import { parseXmlPlistWithDom } from './plist-xml.ts';
import { binaryPlist, xmlPlist } from './testing/packages.ts';

afterEach(() => vi.restoreAllMocks());

describe('parsePlistDict', () => {
  const value = {
    name: '名称 & <co>',
    count: 42,
    ratio: 1.5,
    on: true,
    off: false,
    when: new Date('2024-05-06T07:08:09Z'),
    bytes: new Uint8Array([1, 2, 3, 250]),
    list: ['a', 1, { nested: 'yes' }],
  };

  it('reads XML and binary plists alike', () => {
    expect(parsePlistDict(xmlPlist(value))).toEqual(value);
    expect(parsePlistDict(binaryPlist(value))).toEqual(value);
  });

  it('accepts base64 data with line breaks and stray spaces, as Apple tools write it', () => {
    const xml =
      '<?xml version="1.0"?><plist version="1.0"><dict><key>d</key><data>\n\tAQID\n\t+g==  \n</data></dict></plist>';
    expect(parsePlistDict(Buffer.from(xml))).toEqual({ d: new Uint8Array([1, 2, 3, 250]) });
  });

  it('returns null for malformed or foreign documents without writing to the console', () => {
    const spies = (['log', 'warn', 'error', 'info'] as const).map((method) => vi.spyOn(console, method));
    for (const text of [
      '<plist><dict><key>a</dict></plist>',
      '<html></html>',
      'not xml at all',
      '<plist version="1.0"><array/></plist>',
    ]) {
      expect(parsePlistDict(Buffer.from(text))).toBeNull();
    }
    expect(parsePlistDict(Buffer.from('bplist00garbage'))).toBeNull();
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});

describe('parsePlistDict on hostile documents', () => {
  const wrap = (body: string, newline = '\n') =>
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>${newline}<plist version="1.0">${newline}${body}${newline}</plist>${newline}`,
    );

  it('refuses an Info.plist nested 200,000 levels deep, in either reader, before xmldom builds a tree', () => {
    const body = `<dict><key>CFBundleIdentifier</key><string>x</string><key>Deep</key>${'<array>'.repeat(200_000)}${'</array>'.repeat(200_000)}</dict>`;
    expect(parsePlistDict(wrap(body))).toBeNull();
    // With `\r\n` line ends only xmldom reads it: the shape check refuses it first.
    expect(() => parseXmlPlistWithDom(wrap(body, '\r\n').toString())).toThrow(PlistLimitError);
    expect(parsePlistDict(wrap(body, '\r\n'))).toBeNull();
  });

  it(`refuses a document for xmldom with more than ${PLIST_LIMITS.maxDomElements.toLocaleString('en')} elements, and reads one just under`, () => {
    const items = (count: number) => `<array>${'<true/>'.repeat(count)}</array>`;
    // <plist> + <array> + items
    expect(() => parseXmlPlistWithDom(wrap(items(PLIST_LIMITS.maxDomElements - 1), '\r\n').toString())).toThrow(
      PlistLimitError,
    );
    expect(parseXmlPlistWithDom(wrap(items(PLIST_LIMITS.maxDomElements - 2), '\r\n').toString())).toHaveLength(
      PLIST_LIMITS.maxDomElements - 2,
    );
  });

  it('refuses an internal DTD subset (entity expansion) and values past the count limit', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "${'ha'.repeat(100)}"><!ENTITY b "${'&a;'.repeat(100)}"><!ENTITY c "${'&b;'.repeat(100)}">]><plist><dict><key>k</key><string>&c;</string></dict></plist>`;
    expect(() => parseXmlPlistWithDom(laughs)).toThrow(PlistLimitError);
    expect(parsePlistDict(Buffer.from(laughs))).toBeNull();
    const limits = { ...PLIST_LIMITS, maxValues: 10 };
    expect(parsePlistDict(wrap(`<array>${'<true/>'.repeat(9)}</array>`).subarray(0), limits)).toBeNull();
    expect(parsePlistDict(wrap(`<dict><key>a</key><array>${'<true/>'.repeat(7)}</array></dict>`), limits)).toEqual({
      a: Array(7).fill(true),
    });
    expect(parsePlistDict(wrap(`<dict><key>a</key><array>${'<true/>'.repeat(8)}</array></dict>`), limits)).toBeNull();
  });
});
