import type { HtmlInspection, WebZipInspection } from './types.ts';
import { sourceValuesOf } from './source-values.ts';
import { countFiles, type ZipIndex } from './zip-index.ts';

/** The shallowest `index.html` (root first), ignoring macOS resource forks. */
export function findIndexHtml(names: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDepth = Infinity;
  for (const name of names) {
    if (name.startsWith('__MACOSX/')) continue;
    const segments = name.split('/');
    if (segments[segments.length - 1]?.toLowerCase() !== 'index.html') continue;
    if (segments.length < bestDepth || (segments.length === bestDepth && best !== null && name < best)) {
      best = name;
      bestDepth = segments.length;
    }
  }
  return best;
}

/** `version.json` beside index.html (or at the root), at most this big, read for the build's commit (issue 19). */
const VERSION_JSON_MAX_BYTES = 64 * 1024;

async function versionJsonValues(
  zip: ZipIndex,
  indexHtmlPath: string | null,
): Promise<Record<string, string> | undefined> {
  const dir = indexHtmlPath ? indexHtmlPath.slice(0, indexHtmlPath.lastIndexOf('/') + 1) : '';
  const name = [`${dir}version.json`, 'version.json'].find((candidate) => zip.entries.has(candidate));
  const entry = name ? zip.entries.get(name) : undefined;
  if (!name || !entry || entry.uncompressedSize > VERSION_JSON_MAX_BYTES) return undefined;
  try {
    const parsed: unknown = JSON.parse((await zip.readEntry(name)).toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? sourceValuesOf(Object.entries(parsed))
      : undefined;
  } catch {
    return undefined;
  }
}

/** A zip of a web app (or any other files): counts, size, where index.html is, and its version.json's commit. */
export async function inspectWebZip(zip: ZipIndex): Promise<WebZipInspection> {
  const indexHtmlPath = findIndexHtml(zip.entries.keys());
  const sourceValues = await versionJsonValues(zip, indexHtmlPath);
  return {
    kind: 'zip',
    fileSize: zip.fileSize,
    warnings: indexHtmlPath ? [] : ['压缩包中没有 index.html，无法作为网页打开'],
    fileCount: countFiles(zip),
    uncompressedSize: zip.totalUncompressedBytes,
    indexHtmlPath,
    ...(sourceValues ? { sourceValues } : {}),
  };
}

const HTML_START =
  /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body|meta|title|script|style|div)\b/i;

/** True when the first bytes read as an HTML document. */
export function looksLikeHtml(head: Buffer): boolean {
  const text = new TextDecoder('utf-8').decode(head).replace(/^\uFEFF/, '');
  if (text.includes('\u0000')) return false;
  return HTML_START.test(text);
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, code: string) => {
    if (code.startsWith('#x') || code.startsWith('#X')) return String.fromCodePoint(Number.parseInt(code.slice(2), 16));
    if (code.startsWith('#')) return String.fromCodePoint(Number.parseInt(code.slice(1), 10));
    return entities[code.toLowerCase()] ?? match;
  });
}

/** A single HTML file: its `<title>`, read from the first bytes only. */
export function inspectHtml(head: Buffer, fileSize: number): HtmlInspection {
  const text = new TextDecoder('utf-8').decode(head);
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  let decoded: string | null = null;
  try {
    decoded = title ? decodeEntities(title).replace(/\s+/g, ' ').trim() || null : null;
  } catch {
    decoded = title?.trim() || null;
  }
  return { kind: 'html', fileSize, warnings: [], title: decoded };
}
