/**
 * Writes binary property lists object by object, so tests can make what `plist`'s builder never makes:
 * shared containers, reference cycles, deep nesting, lying counts. Objects refer to each other by index.
 */
export type BplistObject =
  | { string: string }
  | { int: number }
  | { bool: boolean }
  | { data: Uint8Array }
  | { array: number[] }
  | { dict: Array<[number, number]> }
  /** Bytes written as they are (a lying marker, a broken object). */
  | { raw: Buffer };

function sizedInt(value: number, size: number): Buffer {
  const out = Buffer.alloc(size);
  let rest = value;
  for (let i = size - 1; i >= 0; i -= 1) {
    out[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  return out;
}

function marker(type: number, count: number): Buffer {
  if (count < 15) return Buffer.from([(type << 4) | count]);
  const power = count < 0x100 ? 0 : count < 0x10000 ? 1 : 2;
  return Buffer.concat([Buffer.from([(type << 4) | 0x0f, 0x10 | power]), sizedInt(count, 1 << power)]);
}

function encode(object: BplistObject, refSize: number): Buffer {
  const refs = (list: number[]) => Buffer.concat(list.map((ref) => sizedInt(ref, refSize)));
  if ('raw' in object) return object.raw;
  if ('string' in object) {
    const isAscii = /^[\x00-\x7f]*$/.test(object.string);
    if (isAscii) return Buffer.concat([marker(0x5, object.string.length), Buffer.from(object.string, 'latin1')]);
    return Buffer.concat([marker(0x6, object.string.length), Buffer.from(object.string, 'utf16le').swap16()]);
  }
  if ('int' in object) return Buffer.concat([Buffer.from([0x13]), sizedInt(object.int, 8)]);
  if ('bool' in object) return Buffer.from([object.bool ? 0x09 : 0x08]);
  if ('data' in object) return Buffer.concat([marker(0x4, object.data.length), Buffer.from(object.data)]);
  if ('array' in object) return Buffer.concat([marker(0xa, object.array.length), refs(object.array)]);
  return Buffer.concat([
    marker(0xd, object.dict.length),
    refs(object.dict.map(([key]) => key)),
    refs(object.dict.map(([, value]) => value)),
  ]);
}

/** The `bplist00` file of `objects` whose top object is `top` (0 unless said). */
export function writeBplist(objects: BplistObject[], top = 0): Buffer {
  const refSize = objects.length < 0x100 ? 1 : objects.length < 0x10000 ? 2 : 4;
  const parts: Buffer[] = [Buffer.from('bplist00', 'latin1')];
  const offsets: number[] = [];
  let at = 8;
  for (const object of objects) {
    const bytes = encode(object, refSize);
    offsets.push(at);
    parts.push(bytes);
    at += bytes.length;
  }
  const offsetSize = at < 0x100 ? 1 : at < 0x10000 ? 2 : 4;
  const table = Buffer.concat(offsets.map((offset) => sizedInt(offset, offsetSize)));
  const trailer = Buffer.concat([
    Buffer.alloc(6),
    Buffer.from([offsetSize, refSize]),
    sizedInt(objects.length, 8),
    sizedInt(top, 8),
    sizedInt(at, 8),
  ]);
  return Buffer.concat([...parts, table, trailer]);
}

/**
 * An Info.plist whose `Nested` key holds one array referenced twice at each of `levels` levels: 2^levels
 * values for a reader that follows every reference anew (the attack of issue 15), a few hundred bytes here.
 */
export function sharedNestingInfoPlist(levels: number, fields: Record<string, string>): Buffer {
  const objects: BplistObject[] = [];
  const entries: Array<[number, number]> = [];
  objects.push({ dict: entries });
  for (const [key, value] of Object.entries(fields)) {
    objects.push({ string: key }, { string: value });
    entries.push([objects.length - 2, objects.length - 1]);
  }
  objects.push({ string: 'Nested' });
  const nestedKey = objects.length - 1;
  const first = objects.length;
  for (let level = 0; level < levels; level += 1) objects.push({ array: [first + level + 1, first + level + 1] });
  objects.push({ string: 'leaf' });
  entries.push([nestedKey, first]);
  return writeBplist(objects);
}
