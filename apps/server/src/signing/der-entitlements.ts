import { isPlistDict, type PlistDict, type PlistValue } from '@release/inspect/plist.ts';
import { parseAsn1, type Asn1Node } from '@release/inspect/der.ts';

/**
 * DER entitlements (signature slot 7, blob `0xfade7172`), required by iOS 15 and later beside the XML ones.
 * Current Xcode writes `[APPLICATION 16] { INTEGER 1, [CONTEXT 16] { SEQUENCE { UTF8String key, value } … } }`
 * with keys in order; a dictionary is `[CONTEXT 16]`, an array a SEQUENCE, a string UTF8String, a boolean
 * BOOLEAN, an integer INTEGER. Xcode 12 wrote a bare SET of the key/value SEQUENCEs instead; both are read.
 */
export class DerEntitlementsError extends Error {
  constructor(detail: string) {
    super(`DER entitlements: ${detail}`);
    this.name = 'DerEntitlementsError';
  }
}

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let value = length; value > 0; value = Math.floor(value / 256)) bytes.unshift(value & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number[], content: Buffer): Buffer {
  return Buffer.concat([Buffer.from(tag), lengthBytes(content.length), content]);
}

function integerContent(value: number): Buffer {
  if (!Number.isSafeInteger(value)) throw new DerEntitlementsError(`${value} is not an integer`);
  let hex = BigInt.asUintN(64, BigInt(value)).toString(16);
  if (value >= 0) {
    if (hex.length % 2) hex = `0${hex}`;
    if (Number.parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
    return Buffer.from(hex, 'hex');
  }
  // Two's complement, shortest form.
  const bytes = Buffer.from(hex.padStart(16, '0'), 'hex');
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0xff && ((bytes[start + 1] as number) & 0x80) !== 0) start += 1;
  return bytes.subarray(start);
}

function encodeValue(value: PlistValue): Buffer {
  if (typeof value === 'string') return tlv([0x0c], Buffer.from(value, 'utf8'));
  if (typeof value === 'boolean') return tlv([0x01], Buffer.from([value ? 0xff : 0x00]));
  if (typeof value === 'number') return tlv([0x02], integerContent(value));
  if (Array.isArray(value)) return tlv([0x30], Buffer.concat(value.map(encodeValue)));
  if (isPlistDict(value)) return encodeDict(value);
  throw new DerEntitlementsError('dates and data have no DER entitlement form');
}

function encodeDict(dict: PlistDict): Buffer {
  const keys = Object.keys(dict).sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
  const entries = keys.map((key) =>
    tlv([0x30], Buffer.concat([tlv([0x0c], Buffer.from(key, 'utf8')), encodeValue(dict[key] as PlistValue)])),
  );
  return tlv([0xb0], Buffer.concat(entries));
}

/** Encodes entitlements (a parsed plist dictionary) in the form current Xcode writes. */
export function encodeDerEntitlements(entitlements: PlistDict): Buffer {
  return tlv([0x70], Buffer.concat([tlv([0x02], Buffer.from([1])), encodeDict(entitlements)]));
}

function decodeValue(bytes: Buffer, node: Asn1Node): PlistValue {
  const content = bytes.subarray(node.contentStart, node.contentEnd);
  switch (node.tag) {
    case 0x0c:
      return content.toString('utf8');
    case 0x01:
      return content[0] !== 0;
    case 0x02:
      return Number(BigInt.asIntN(content.length * 8, BigInt(`0x${content.toString('hex') || '0'}`)));
    case 0x30:
      return node.children.map((item) => decodeValue(bytes, item));
    case 0xb0:
    case 0x31:
      return decodeEntries(bytes, node);
    default:
      throw new DerEntitlementsError(`tag ${node.tag.toString(16)}`);
  }
}

function decodeEntries(bytes: Buffer, node: Asn1Node): PlistDict {
  const dict: PlistDict = {};
  for (const entry of node.children) {
    const [key, value] = entry.children;
    if (entry.tag !== 0x30 || key?.tag !== 0x0c || !value)
      throw new DerEntitlementsError('an entry is not a key and a value');
    dict[bytes.toString('utf8', key.contentStart, key.contentEnd)] = decodeValue(bytes, value);
  }
  return dict;
}

/** Reads DER entitlements in either form back to a dictionary (to compare with the XML ones). */
export function decodeDerEntitlements(der: Buffer): PlistDict {
  let root: Asn1Node;
  try {
    root = parseAsn1(der);
  } catch (error) {
    throw new DerEntitlementsError(error instanceof Error ? error.message : 'unreadable');
  }
  if (root.tag === 0x31) return decodeEntries(der, root);
  const [version, dict] = root.children;
  if (root.tag !== 0x70 || version?.tag !== 0x02 || dict?.tag !== 0xb0)
    throw new DerEntitlementsError('not an entitlements document');
  return decodeEntries(der, dict);
}
