import { describe, expect, it } from 'vitest';
import { findSegment, looksLikeMachO, MachOError, parseMachO, sliceBytes } from './macho.ts';
import { buildFat, buildThinMachO, CPU_ARM64, CPU_ARMV7 } from './testing/macho-builder.ts';

function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof MachOError) return error.reason;
    throw error;
  }
  return 'parsed';
}

describe('parseMachO', () => {
  it('reads a thin arm64 binary: header, segments with sections, UUID, dylib id, code signature', () => {
    const bytes = buildThinMachO({ dylibId: '@rpath/Kit.framework/Kit', signature: { identifier: 'com.example.Kit' } });
    expect(looksLikeMachO(bytes)).toBe(true);
    const file = parseMachO(bytes);
    expect([file.isFat, file.slices.length]).toEqual([false, 1]);
    const slice = file.slices[0]!;
    expect(slice).toMatchObject({
      offset: 0,
      size: bytes.length,
      align: null,
      is64: true,
      littleEndian: true,
      arch: 'arm64',
      fileType: 6,
      headerSize: 32,
    });
    expect(slice.dylibId).toBe('@rpath/Kit.framework/Kit');
    expect(slice.uuid).toBe('00112233-4455-6677-8899-AABBCCDDEEFF');
    expect(slice.segments.map((s) => [s.name, s.fileOffset, s.fileSize])).toEqual([
      ['__TEXT', 0, 16384],
      ['__LINKEDIT', 16384, 64 + 16384],
    ]);
    expect(findSegment(slice, '__TEXT')?.sections.map((s) => [s.name, s.segmentName, s.fileOffset])).toEqual([
      ['__text', '__TEXT', 4096],
    ]);
    expect(slice.codeSignature).toMatchObject({ dataOffset: 16384 + 64, dataSize: 16384 });
    expect(slice.encryption).toBeNull();
    expect(slice.loadCommands.map((c) => c.cmd)).toEqual([0x19, 0x19, 0x1b, 0xd, 0x1d]);
  });

  it('reads a 32-bit armv7 binary and App Store encryption', () => {
    const slice = parseMachO(buildThinMachO({ is64: false, ...CPU_ARMV7, cryptId: 1, signature: null })).slices[0]!;
    expect([slice.is64, slice.arch, slice.headerSize, slice.codeSignature]).toEqual([false, 'armv7', 28, null]);
    expect(slice.encryption).toMatchObject({ cryptOffset: 4096, cryptId: 1 });
  });

  it('reads a FAT binary slice by slice, at their aligned offsets', () => {
    const armv7 = buildThinMachO({ is64: false, ...CPU_ARMV7, signature: { identifier: 'com.example.app' } });
    const arm64 = buildThinMachO({ ...CPU_ARM64, signature: { identifier: 'com.example.app' } });
    const fat = buildFat([
      { bytes: armv7, ...CPU_ARMV7 },
      { bytes: arm64, ...CPU_ARM64 },
    ]);
    const file = parseMachO(fat);
    expect(file.isFat).toBe(true);
    expect(file.slices.map((s) => [s.arch, s.offset % 16384, s.align, s.size])).toEqual([
      ['armv7', 0, 14, armv7.length],
      ['arm64', 0, 14, arm64.length],
    ]);
    expect(sliceBytes(fat, file.slices[1]!).equals(arm64)).toBe(true);
  });

  it('refuses what is not a Mach-O, or lies about its sizes', () => {
    expect(reasonOf(() => parseMachO(Buffer.from('PK\x03\x04 not a binary at all')))).toBe('notMachO');
    expect(reasonOf(() => parseMachO(Buffer.alloc(4)))).toBe('notMachO');
    const good = buildThinMachO({ signature: null });
    expect(reasonOf(() => parseMachO(good.subarray(0, 40)))).toBe('truncated');
    const manyCommands = Buffer.from(good);
    manyCommands.writeUInt32LE(10_000, 16);
    expect(reasonOf(() => parseMachO(manyCommands))).toBe('badLoadCommand');
    const badSize = Buffer.from(good);
    badSize.writeUInt32LE(3, 32 + 4);
    expect(reasonOf(() => parseMachO(badSize))).toBe('badLoadCommand');
    const signed = buildThinMachO({ signature: { identifier: 'x' } });
    expect(reasonOf(() => parseMachO(signed.subarray(0, signed.length - 100)))).toBe('truncated');
  });

  it('refuses FAT tables that overlap, point outside the file or name the wrong CPU', () => {
    const arm64 = buildThinMachO({ signature: null });
    const fat = buildFat([
      { bytes: arm64, ...CPU_ARM64 },
      { bytes: arm64, ...CPU_ARM64 },
    ]);
    const overlapping = Buffer.from(fat);
    overlapping.writeUInt32BE(16384, 8 + 20 + 8);
    expect(reasonOf(() => parseMachO(overlapping))).toBe('badFatTable');
    const outside = Buffer.from(fat);
    outside.writeUInt32BE(fat.length, 8 + 8);
    expect(reasonOf(() => parseMachO(outside))).toBe('badFatTable');
    const wrongCpu = Buffer.from(fat);
    wrongCpu.writeInt32BE(CPU_ARMV7.cpuType, 8);
    expect(reasonOf(() => parseMachO(wrongCpu))).toBe('badFatTable');
    const java = Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52]);
    expect(looksLikeMachO(java)).toBe(false);
    expect(reasonOf(() => parseMachO(Buffer.concat([java, Buffer.alloc(64)])))).toBe('badFatTable');
  });
});
