import { afterEach, describe, expect, it, vi } from 'vitest';
import { parsePlistDict } from './plist.ts';
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
    const xml = '<?xml version="1.0"?><plist version="1.0"><dict><key>d</key><data>\n\tAQID\n\t+g==  \n</data></dict></plist>';
    expect(parsePlistDict(Buffer.from(xml))).toEqual({ d: new Uint8Array([1, 2, 3, 250]) });
  });

  it('returns null for malformed or foreign documents without writing to the console', () => {
    const spies = (['log', 'warn', 'error', 'info'] as const).map((method) => vi.spyOn(console, method));
    for (const text of ['<plist><dict><key>a</dict></plist>', '<html></html>', 'not xml at all', '<plist version="1.0"><array/></plist>']) {
      expect(parsePlistDict(Buffer.from(text))).toBeNull();
    }
    expect(parsePlistDict(Buffer.from('bplist00garbage'))).toBeNull();
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});
