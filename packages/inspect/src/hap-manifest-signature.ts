import { createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/**
 * The `sign` of a HarmonyOS internal-distribution manifest (`store://enterprise/manifest`), as Huawei's
 * manifest-sign-tool 1.0.0 makes and checks it (docs/harmonyos.md, "The manifest signature"): the tool reads the
 * manifest's `app` into a typed object that keeps only the fields below, writes it back as Gson does (compact,
 * fields in the class's order, absent ones left out, `< > & = '` escaped), and signs those UTF-8 bytes with
 * SHA256withECDSA under the key of the .p12 the app is signed with; `sign` is the base64 of the DER signature.
 * `packageUrl`, `deployDomain` and `icons` are not signed: whoever serves the modules may name their own URLs.
 */
export interface HarmonyManifestSigned {
  bundleName?: string;
  bundleType?: string;
  label?: string;
  minAPIVersion?: string;
  modules?: { deviceTypes?: string[]; name?: string; packageHash?: string; type?: string }[];
  targetAPIVersion?: string;
  versionCode?: number;
  versionName?: string;
}

const APP_FIELDS = [
  'bundleName',
  'bundleType',
  'label',
  'minAPIVersion',
  'modules',
  'targetAPIVersion',
  'versionCode',
  'versionName',
] as const;
const MODULE_FIELDS = ['deviceTypes', 'name', 'packageHash', 'type'] as const;
const INT32_MAX = 2 ** 31 - 1;

type Row = Record<string, unknown>;
const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const absent = (value: unknown) => value === undefined || value === null;

/** A string field as the tool keeps it; undefined when absent, null when the tool would not read it as a string. */
function text(value: unknown): string | undefined | null {
  if (absent(value)) return undefined;
  return typeof value === 'string' ? value : null;
}

/**
 * What the tool signs of a manifest's `app`, or null when `app` is not what the tool reads (a field of another type,
 * a module or device type that is not there): such a manifest cannot carry a valid signature.
 */
export function harmonyManifestSigned(app: unknown): HarmonyManifestSigned | null {
  if (!isRow(app)) return null;
  const out: HarmonyManifestSigned = {};
  for (const field of APP_FIELDS) {
    const value = app[field];
    if (absent(value)) continue;
    if (field === 'versionCode') {
      if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > INT32_MAX) return null;
      out.versionCode = value;
    } else if (field === 'modules') {
      if (!Array.isArray(value)) return null;
      const modules: NonNullable<HarmonyManifestSigned['modules']> = [];
      for (const module of value) {
        if (!isRow(module)) return null;
        const kept: NonNullable<HarmonyManifestSigned['modules']>[number] = {};
        for (const key of MODULE_FIELDS) {
          const item = module[key];
          if (key === 'deviceTypes') {
            if (absent(item)) continue;
            if (!Array.isArray(item) || !item.every((type) => typeof type === 'string')) return null;
            kept.deviceTypes = item;
          } else {
            const kept1 = text(item);
            if (kept1 === null) return null;
            if (kept1 !== undefined) kept[key] = kept1;
          }
        }
        modules.push(kept);
      }
      out.modules = modules;
    } else {
      const kept = text(value);
      if (kept === null) return null;
      if (kept !== undefined) out[field] = kept;
    }
  }
  return out;
}

/** Gson's string with HTML-safe escaping; a lone surrogate becomes `?` as Java's UTF-8 encoder writes it. */
function gsonString(value: string): string {
  let out = '"';
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    const char = value[index] as string;
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < value.length) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += char + value[index + 1];
        index++;
        continue;
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) out += '?';
    else if (char === '"' || char === '\\') out += `\\${char}`;
    else if (char === '\t') out += '\\t';
    else if (char === '\b') out += '\\b';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\f') out += '\\f';
    else if (code < 0x20 || "<>&='".includes(char) || code === 0x2028 || code === 0x2029)
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

function gsonJson(value: unknown): string {
  if (typeof value === 'string') return gsonString(value);
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map(gsonJson).join(',')}]`;
  const row = value as Row;
  return `{${Object.keys(row)
    .filter((key) => row[key] !== undefined)
    .map((key) => `${gsonString(key)}:${gsonJson(row[key])}`)
    .join(',')}}`;
}

/** The bytes the tool signs: `signed` (fields already in the tool's order) written as Gson writes it. */
export function harmonyManifestSignedBytes(signed: HarmonyManifestSigned): Buffer {
  return Buffer.from(gsonJson(signed), 'utf8');
}

/** The public key of a build's signing certificate as the inspector records it (base64 SPKI DER). */
export function harmonyPublicKey(spkiBase64: string): KeyObject {
  return createPublicKey({ key: Buffer.from(spkiBase64, 'base64'), format: 'der', type: 'spki' });
}

/**
 * Whether `sign` (base64 DER) is the signature of `app` under `key`: SHA-256 with the key's own algorithm, ECDSA for
 * the P-256 keys Huawei certifies (the tool's SHA256withECDSA).
 */
export function verifyHarmonyManifest(app: unknown, signature: string, key: KeyObject): boolean {
  const signed = harmonyManifestSigned(app);
  if (!signed || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  try {
    return verify('sha256', harmonyManifestSignedBytes(signed), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** The `sign` the tool would write for `app` with `privateKey`; null when `app` is not what the tool reads. */
export function signHarmonyManifest(app: unknown, privateKey: KeyObject): string | null {
  const signed = harmonyManifestSigned(app);
  return signed ? sign('sha256', harmonyManifestSignedBytes(signed), privateKey).toString('base64') : null;
}
