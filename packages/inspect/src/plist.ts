import type { PlistValue } from 'plist';
import { parseBinaryPlist } from './plist-binary.ts';
import { PLIST_LIMITS, type PlistLimits } from './plist-limits.ts';
import { parseXmlPlist } from './plist-xml.ts';

export type { PlistValue };
export type PlistDict = { [key: string]: PlistValue };

const BINARY_MAGIC = Buffer.from('bplist00', 'latin1');

export function isPlistDict(value: PlistValue | undefined): value is PlistDict {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof Uint8Array)
  );
}

function decodeXml(bytes: Buffer): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * Parses an XML or binary (`bplist00`) property list within `limits` (docs/parsers.md); returns null when it
 * is neither, not a dictionary, or past a limit.
 */
export function parsePlistDict(bytes: Buffer, limits: PlistLimits = PLIST_LIMITS): PlistDict | null {
  let value: PlistValue;
  try {
    if (bytes.subarray(0, 8).equals(BINARY_MAGIC)) {
      value = parseBinaryPlist(bytes, limits);
    } else {
      value = parseXmlPlist(decodeXml(bytes), limits);
    }
  } catch {
    return null;
  }
  return isPlistDict(value) ? value : null;
}

export function plistString(dict: PlistDict, key: string): string | null {
  const value = dict[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/** A non-blank string, trimmed; blank and missing both give null. */
export function plistText(dict: PlistDict, key: string): string | null {
  const value = plistString(dict, key)?.trim();
  return value ? value : null;
}

export function plistBoolean(dict: PlistDict, key: string): boolean | null {
  const value = dict[key];
  return typeof value === 'boolean' ? value : null;
}

export function plistDate(dict: PlistDict, key: string): Date | null {
  const value = dict[key];
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value : null;
}

export function plistDictAt(dict: PlistDict, key: string): PlistDict | null {
  const value = dict[key];
  return isPlistDict(value) ? value : null;
}

export function plistStrings(dict: PlistDict, key: string): string[] {
  const value = dict[key];
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string');
}

export function plistNumbers(dict: PlistDict, key: string): number[] {
  const value = dict[key];
  if (typeof value === 'number') return [value];
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) =>
    typeof item === 'number' ? [item] : typeof item === 'string' && /^\d+$/.test(item) ? [Number(item)] : [],
  );
}

export function plistDataArray(dict: PlistDict, key: string): Uint8Array[] {
  const value = dict[key];
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is Uint8Array => item instanceof Uint8Array);
}
