import { describe, expect, it } from 'vitest';
import { PLIST_LIMITS, PlistLimitError } from './plist-limits.ts';
import { readSimpleXmlPlist } from './plist-xml-simple.ts';
import { parseXmlPlistWithDom } from './plist-xml.ts';
import { xmlPlist } from './testing/packages.ts';

const PROLOG =
  '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n';
const plist = (body: string) => `${PROLOG}<plist version="1.0">\n${body}\n</plist>\n`;

describe('readSimpleXmlPlist', () => {
  it.each([
    [
      'a generated document',
      xmlPlist({
        name: '名称 & <co>',
        count: 42,
        ratio: 1.5,
        on: true,
        off: false,
        when: new Date('2024-05-06T07:08:09Z'),
        bytes: new Uint8Array([1, 2, 250]),
        list: ['a', 1, { nested: 'yes' }],
      }).toString('utf8'),
    ],
    [
      'entities and character references',
      plist('<dict><key>a&amp;b</key><string>&lt;&gt;&quot;&apos;&#65;&#x1F600;&#x4E2D;</string></dict>'),
    ],
    [
      'empty elements',
      plist(
        '<dict><key>s</key><string/><key>t</key><string></string><key>d</key><dict/><key>a</key><array/><key>i</key><integer/><key>k</key><true></true></dict>',
      ),
    ],
    [
      'comments between elements',
      plist(
        '<!-- top --><dict>\n\t<!-- c --><key>a</key><!-- between --><integer> 7 </integer>\n</dict><!-- after -->',
      ),
    ],
    ['a key without a value', plist('<dict><key>a</key><string>x</string><key>dangling</key></dict>')],
    ['data with line breaks', plist('<dict><key>d</key><data>\n\tAQID\n\t+g==  \n</data></dict>')],
    [
      'nested arrays and dicts',
      plist(
        '<array><array><dict><key>x</key><array><real>-1.25e3</real><date>2020-01-02T03:04:05Z</date></array></dict></array></array>',
      ),
    ],
    [
      'a repeated key (the last wins)',
      plist('<dict><key>a</key><string>1</string><key>a</key><string>2</string></dict>'),
    ],
    ['no prolog, bare plist tag', '<plist><dict><key>a</key><false/></dict></plist>'],
  ])('reads %s as xmldom does', (_label, xml) => {
    const simple = readSimpleXmlPlist(xml);
    expect(simple).not.toBeUndefined();
    expect(simple).toEqual(parseXmlPlistWithDom(xml));
  });

  it.each([
    ['CDATA', plist('<dict><key>a</key><string><![CDATA[<x>]]></string></dict>')],
    ['a comment inside text', plist('<dict><key>a</key><string>x<!-- c -->y</string></dict>')],
    ['carriage returns', plist('<dict><key>a</key><string>x\r\ny</string></dict>')],
    ['attributes on a value', plist('<dict><key>a</key><string xml:space="preserve">x</string></dict>')],
    ['an unknown entity', plist('<dict><key>a</key><string>&nbsp;</string></dict>')],
    ['a bare ampersand', plist('<dict><key>a</key><string>a & b</string></dict>')],
    ['a second value', plist('<dict/><dict/>')],
    ['mixed content', plist('<dict>text<key>a</key><string>x</string></dict>')],
    [
      'an internal DTD subset',
      '<!DOCTYPE plist [<!ENTITY x "y">]><plist><dict><key>a</key><string>&x;</string></dict></plist>',
    ],
    ['mismatched tags', '<plist><dict><key>a</dict></plist>'],
    ['an unknown element', plist('<dict><key>a</key><foo/></dict>')],
    ['a value where a key belongs', plist('<dict><string>a</string><string>b</string></dict>')],
    ['an empty plist', plist('')],
    ['another root', '<html><body/></html>'],
    ['text after the document', `${plist('<dict/>')}trailing`],
  ])('leaves %s to xmldom', (_label, xml) => {
    expect(readSimpleXmlPlist(xml)).toBeUndefined();
  });

  it('refuses documents nested past the limit in both readers, xmldom before it builds a tree', () => {
    const xml = plist(`${'<array>'.repeat(PLIST_LIMITS.maxDepth + 1)}${'</array>'.repeat(PLIST_LIMITS.maxDepth + 1)}`);
    expect(() => readSimpleXmlPlist(xml)).toThrow(PlistLimitError);
    expect(() => parseXmlPlistWithDom(xml)).toThrow(PlistLimitError);
    const deepest = plist(
      `${'<array>'.repeat(PLIST_LIMITS.maxDepth)}<string>x</string>${'</array>'.repeat(PLIST_LIMITS.maxDepth)}`,
    );
    expect(readSimpleXmlPlist(deepest)).toEqual(parseXmlPlistWithDom(deepest));
  });
});
