import { describe, expect, it } from 'vitest';
import { decodeRequirement, designatedRequirement, RequirementError, requirementSet } from './requirements.ts';

function requirement(words: Array<number | string>): Buffer {
  const parts: Buffer[] = [];
  for (const word of words) {
    if (typeof word === 'number') {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(word >>> 0, 0);
      parts.push(b);
    } else {
      const data = Buffer.from(word, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length, 0);
      parts.push(length, data, Buffer.alloc((4 - (data.length % 4)) % 4));
    }
  }
  const payload = Buffer.concat([Buffer.from([0, 0, 0, 1]), ...parts]);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(0xfade0c00, 0);
  head.writeUInt32BE(payload.length + 8, 4);
  return Buffer.concat([head, payload]);
}

describe('requirements', () => {
  it("builds Xcode's designated requirement and reads it back", () => {
    const blob = designatedRequirement('com.example.app', 'Apple Development: 张三 (TEAM123456)');
    expect(blob.readUInt32BE(0)).toBe(0xfade0c00);
    expect(blob.length % 4).toBe(0);
    expect(decodeRequirement(blob)).toBe(
      'identifier "com.example.app" and anchor apple generic and certificate leaf[subject.CN] = "Apple Development: 张三 (TEAM123456)" and certificate 1[field.1.2.840.113635.100.6.2.1] exists',
    );
  });

  it('wraps requirements in a set with their offsets', () => {
    const blob = designatedRequirement('a', 'b');
    const set = requirementSet([{ type: 3, blob }]);
    expect(set.readUInt32BE(0)).toBe(0xfade0c01);
    expect([set.readUInt32BE(4), set.readUInt32BE(8), set.readUInt32BE(12), set.readUInt32BE(16)]).toEqual([
      20 + blob.length,
      1,
      3,
      20,
    ]);
    expect(set.subarray(20).equals(blob)).toBe(true);
  });

  it('prints or-groups, cdhash, info, entitlement and platform clauses', () => {
    const text = decodeRequirement(
      requirement([
        6,
        7,
        2,
        'com.a',
        2,
        'com.b',
        6,
        8,
        '\x01\x02',
        6,
        10,
        'CFBundleVersion',
        3,
        '1.',
        6,
        16,
        'get-task-allow',
        0,
        20,
        2,
      ]),
    );
    expect(text).toBe(
      '(identifier "com.a" or identifier "com.b") and cdhash H"0102" and info[CFBundleVersion] = "1.*" and entitlement["get-task-allow"] exists and platform = 2',
    );
  });

  it('refuses what is not a requirement, or is cut short', () => {
    expect(() => decodeRequirement(Buffer.from('nonsense nonsense'))).toThrow(RequirementError);
    const blob = designatedRequirement('com.example.app', 'x');
    const cut = Buffer.from(blob.subarray(0, 40));
    cut.writeUInt32BE(40, 4);
    expect(() => decodeRequirement(cut)).toThrow(RequirementError);
    expect(() => decodeRequirement(requirement([99]))).toThrow('operation 99');
  });
});
