import { sha1Of, sha256Of, type AppFile } from './app-files.ts';
import { isPlistDict, parsePlistDict, type PlistDict, type PlistValue } from '@release/inspect/plist.ts';

/**
 * `_CodeSignature/CodeResources`: the seal over a bundle's files. `files` (SHA-1, old systems) and `files2`
 * (SHA-256 `hash2`, what iOS checks) map a path relative to the bundle to its digest; `rules2` decide which
 * files must be sealed (highest weight wins; `omit` leaves a file out, `optional` lets it be absent).
 */
export interface FileSeal {
  /** SHA-1 of the file. */
  hash: Buffer | null;
  /** SHA-256 of the file. */
  hash2: Buffer | null;
  optional: boolean;
  /** Nested code sealed by its CodeDirectory hash instead of its bytes. */
  cdhash: Buffer | null;
  requirement: string | null;
  symlink: string | null;
}

export interface ResourceRule {
  pattern: string;
  regex: RegExp;
  omit: boolean;
  optional: boolean;
  nested: boolean;
  weight: number;
}

export interface CodeResources {
  files: Map<string, FileSeal>;
  files2: Map<string, FileSeal>;
  rules: ResourceRule[];
  rules2: ResourceRule[];
}

export interface SealCheck {
  /** Sealed files whose bytes differ from the seal. */
  mismatched: string[];
  /** Sealed, not optional, and absent from the bundle. */
  missing: string[];
  /** In the bundle, not sealed, and not left out by a rule. */
  unsealed: string[];
  /** Nested code sealed by cdhash; the caller verifies those bundles on their own. */
  nested: string[];
}

const asBuffer = (value: PlistValue | undefined) => (value instanceof Uint8Array ? Buffer.from(value) : null);
const asString = (value: PlistValue | undefined) => (typeof value === 'string' ? value : null);

function sealOf(value: PlistValue | undefined): FileSeal | null {
  if (value instanceof Uint8Array)
    return { hash: Buffer.from(value), hash2: null, optional: false, cdhash: null, requirement: null, symlink: null };
  if (!isPlistDict(value)) return null;
  return {
    hash: asBuffer(value.hash),
    hash2: asBuffer(value.hash2),
    optional: value.optional === true,
    cdhash: asBuffer(value.cdhash),
    requirement: asString(value.requirement),
    symlink: asString(value.symlink),
  };
}

function sealsOf(dict: PlistDict, key: string): Map<string, FileSeal> {
  const seals = new Map<string, FileSeal>();
  const section = dict[key];
  if (!isPlistDict(section)) return seals;
  for (const [path, value] of Object.entries(section)) {
    const seal = sealOf(value);
    if (seal) seals.set(path, seal);
  }
  return seals;
}

function rulesOf(dict: PlistDict, key: string): ResourceRule[] {
  const section = dict[key];
  if (!isPlistDict(section)) return [];
  return Object.entries(section).flatMap(([pattern, value]) => {
    let regex: RegExp;
    try {
      regex = new RegExp(pattern);
    } catch {
      return [];
    }
    const options = isPlistDict(value) ? value : {};
    return [
      {
        pattern,
        regex,
        omit: options.omit === true,
        optional: options.optional === true,
        nested: options.nested === true,
        weight: typeof options.weight === 'number' ? options.weight : 1,
      },
    ];
  });
}

export function parseCodeResources(bytes: Buffer): CodeResources | null {
  const dict = parsePlistDict(bytes);
  if (!dict) return null;
  return {
    files: sealsOf(dict, 'files'),
    files2: sealsOf(dict, 'files2'),
    rules: rulesOf(dict, 'rules'),
    rules2: rulesOf(dict, 'rules2'),
  };
}

/**
 * The rule that governs a path: the matching rule of highest weight. Among equal weights an omitting rule wins:
 * older Xcode writes `^` and `^Info\.plist$` both at weight 20, and leaves Info.plist (slot 1) out of the seal.
 */
export function ruleFor(rules: ResourceRule[], path: string): ResourceRule | null {
  let best: ResourceRule | null = null;
  for (const rule of rules) {
    if (!rule.regex.test(path)) continue;
    if (!best || rule.weight > best.weight || (rule.weight === best.weight && rule.omit && !best.omit)) best = rule;
  }
  return best;
}

/**
 * Checks a bundle's files (path relative to the bundle → bytes) against its `files2` seal. The main
 * executable and `_CodeSignature/` are sealed by the CodeDirectory, not here.
 */
export function checkSealedFiles(
  resources: CodeResources,
  files: ReadonlyMap<string, AppFile>,
  mainExecutable: string | null,
): SealCheck {
  const result: SealCheck = { mismatched: [], missing: [], unsealed: [], nested: [] };
  for (const [path, seal] of resources.files2) {
    if (seal.symlink !== null) continue;
    if (seal.cdhash && !seal.hash2 && !seal.hash) {
      result.nested.push(path);
      continue;
    }
    const bytes = files.get(path);
    if (!bytes) {
      if (!seal.optional) result.missing.push(path);
      continue;
    }
    const matches = seal.hash2
      ? sha256Of(bytes).equals(seal.hash2)
      : seal.hash
        ? sha1Of(bytes).equals(seal.hash)
        : false;
    if (!matches) result.mismatched.push(path);
  }
  for (const path of files.keys()) {
    if (resources.files2.has(path) || path === mainExecutable || path.startsWith('_CodeSignature/')) continue;
    if (result.nested.some((nested) => path.startsWith(`${nested}/`))) continue;
    if (!ruleFor(resources.rules2, path)?.omit) result.unsealed.push(path);
  }
  for (const list of [result.mismatched, result.missing, result.unsealed, result.nested]) list.sort();
  return result;
}
