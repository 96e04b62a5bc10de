import { sha1Of, sha256Of, type AppFile } from './app-files.ts';
import { ruleFor, type ResourceRule } from './code-resources.ts';

/**
 * Writes a bundle's `_CodeSignature/CodeResources` as current Xcode does: `files` (SHA-1, under the old
 * `rules`), `files2` (SHA-256 `hash2`, under `rules2`), then both rule sets, in Apple's XML plist layout.
 * Nested bundles' files are sealed file by file, their own `_CodeSignature/CodeResources` included, so the
 * nested bundles must be signed first.
 */
interface RuleSpec {
  pattern: string;
  omit?: boolean;
  optional?: boolean;
  weight?: number;
}

const RULES: RuleSpec[] = [
  { pattern: '^.*' },
  { pattern: '^.*\\.lproj/', optional: true, weight: 1000 },
  { pattern: '^.*\\.lproj/locversion.plist$', omit: true, weight: 1100 },
  { pattern: '^Base\\.lproj/', weight: 1010 },
  { pattern: '^version.plist$' },
];

const RULES2: RuleSpec[] = [
  { pattern: '.*\\.dSYM($|/)', weight: 11 },
  { pattern: '^(.*/)?\\.DS_Store$', omit: true, weight: 2000 },
  { pattern: '^.*' },
  { pattern: '^.*\\.lproj/', optional: true, weight: 1000 },
  { pattern: '^.*\\.lproj/locversion.plist$', omit: true, weight: 1100 },
  { pattern: '^Base\\.lproj/', weight: 1010 },
  { pattern: '^Info\\.plist$', omit: true, weight: 20 },
  { pattern: '^PkgInfo$', omit: true, weight: 20 },
  { pattern: '^embedded\\.provisionprofile$', weight: 20 },
  { pattern: '^version\\.plist$', weight: 20 },
];

const compiled = (specs: RuleSpec[]): ResourceRule[] =>
  specs.map((spec) => ({
    pattern: spec.pattern,
    regex: new RegExp(spec.pattern),
    omit: spec.omit === true,
    optional: spec.optional === true,
    nested: false,
    weight: spec.weight ?? 1,
  }));
const RULES_COMPILED = compiled(RULES);
const RULES2_COMPILED = compiled(RULES2);

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const tabs = (depth: number) => '\t'.repeat(depth);
const data = (bytes: Buffer, depth: number) =>
  `${tabs(depth)}<data>\n${tabs(depth)}${bytes.toString('base64')}\n${tabs(depth)}</data>\n`;
const key = (name: string, depth: number) => `${tabs(depth)}<key>${escapeXml(name)}</key>\n`;

function rulesXml(specs: RuleSpec[]): string {
  let out = '';
  for (const spec of specs) {
    out += key(spec.pattern, 2);
    if (!spec.omit && !spec.optional && spec.weight === undefined) {
      out += `${tabs(2)}<true/>\n`;
      continue;
    }
    out += `${tabs(2)}<dict>\n`;
    if (spec.omit) out += `${key('omit', 3)}${tabs(3)}<true/>\n`;
    if (spec.optional) out += `${key('optional', 3)}${tabs(3)}<true/>\n`;
    if (spec.weight !== undefined) out += `${key('weight', 3)}${tabs(3)}<real>${spec.weight}</real>\n`;
    out += `${tabs(2)}</dict>\n`;
  }
  return out;
}

/** Apple's plist key order: by UTF-16 code units (CFString compare), which is byte order for ASCII names. */
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `withSha1` also puts the SHA-1 `hash` in `files2`, as Xcode does for code that still supports systems needing
 * SHA-1 (the binaries signed with a SHA-1 primary CodeDirectory).
 */
export function buildCodeResources(
  files: ReadonlyMap<string, AppFile>,
  mainExecutable: string | null,
  options: { withSha1?: boolean } = {},
): Buffer {
  const paths = [...files.keys()]
    .filter((path) => path !== mainExecutable && !path.startsWith('_CodeSignature/'))
    .sort(byKey);
  let filesXml = '';
  let files2Xml = '';
  for (const path of paths) {
    const bytes = files.get(path) as AppFile;
    const rule = ruleFor(RULES_COMPILED, path);
    if (rule && !rule.omit) {
      const sha1 = sha1Of(bytes);
      filesXml += key(path, 2);
      filesXml += rule.optional
        ? `${tabs(2)}<dict>\n${key('hash', 3)}${data(sha1, 3)}${key('optional', 3)}${tabs(3)}<true/>\n${tabs(2)}</dict>\n`
        : data(sha1, 2);
    }
    const rule2 = ruleFor(RULES2_COMPILED, path);
    if (rule2 && !rule2.omit) {
      const sha256 = sha256Of(bytes);
      files2Xml += `${key(path, 2)}${tabs(2)}<dict>\n`;
      if (options.withSha1) files2Xml += `${key('hash', 3)}${data(sha1Of(bytes), 3)}`;
      files2Xml += `${key('hash2', 3)}${data(sha256, 3)}`;
      if (rule2.optional) files2Xml += `${key('optional', 3)}${tabs(3)}<true/>\n`;
      files2Xml += `${tabs(2)}</dict>\n`;
    }
  }
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n' +
    `${key('files', 1)}${tabs(1)}<dict>\n${filesXml}${tabs(1)}</dict>\n` +
    `${key('files2', 1)}${tabs(1)}<dict>\n${files2Xml}${tabs(1)}</dict>\n` +
    `${key('rules', 1)}${tabs(1)}<dict>\n${rulesXml(RULES)}${tabs(1)}</dict>\n` +
    `${key('rules2', 1)}${tabs(1)}<dict>\n${rulesXml(RULES2)}${tabs(1)}</dict>\n` +
    '</dict>\n</plist>\n';
  return Buffer.from(xml, 'utf8');
}
