import { describe, expect, it } from 'vitest';
import { buildCodeDirectory, specialSlotHash } from './code-directory.ts';
import { CS_HASHTYPE, mismatchedPages, mismatchedSpecialSlots, parseCodeDirectory } from './code-signature.ts';

const code = Buffer.alloc(3 * 4096 + 777, 0x5a);
const infoPlist = Buffer.from('<plist><dict/></plist>');

describe('buildCodeDirectory', () => {
  it.each([
    ['SHA-256, version 0x20400', CS_HASHTYPE.sha256, 0x20400 as const],
    ['SHA-1, version 0x20200', CS_HASHTYPE.sha1, 0x20200 as const],
  ])('%s: reads back with its fields, pages and special slots', (_, hashType, version) => {
    const blob = buildCodeDirectory({
      version,
      flags: 0,
      hashType,
      identifier: 'com.example.app',
      teamId: 'TEAM123456',
      code,
      pageSizeLog2: 12,
      specialSlots: new Map([[1, specialSlotHash(hashType, infoPlist)]]),
      specialSlotCount: 7,
      execSegBase: 0n,
      execSegLimit: 16384n,
      execSegFlags: 1n,
    });
    const parsed = parseCodeDirectory(blob, 0);
    expect(parsed).toMatchObject({
      version,
      hashType,
      identifier: 'com.example.app',
      teamId: 'TEAM123456',
      pageSize: 4096,
      codeLimit: code.length,
    });
    expect(parsed.codeHashes).toHaveLength(4);
    expect(parsed.specialSlots.size).toBe(7);
    expect(parsed.execSegLimit).toBe(version === 0x20400 ? 16384n : null);
    expect(mismatchedPages(code, parsed)).toEqual([]);
    expect(
      mismatchedSpecialSlots(
        parsed,
        new Map([
          [1, infoPlist],
          [2, null],
          [7, null],
        ]),
      ),
    ).toEqual([]);
  });

  it('writes no team id when there is none', () => {
    const blob = buildCodeDirectory({
      version: 0x20400,
      flags: 2,
      hashType: CS_HASHTYPE.sha256,
      identifier: 'adhoc',
      teamId: null,
      code,
      pageSizeLog2: 12,
      specialSlots: new Map(),
      specialSlotCount: 2,
    });
    expect(parseCodeDirectory(blob, 0)).toMatchObject({ teamId: null, flags: 2, identifier: 'adhoc' });
  });
});
