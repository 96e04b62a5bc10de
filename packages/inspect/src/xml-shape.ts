import { PlistLimitError } from './plist-limits.ts';

/**
 * One linear pass over an XML document that bounds what a DOM parser would build from it, before it builds
 * anything: elements counted (each needs a `<`), nesting followed by a stack of open names that only the
 * matching end tag pops (so the depth found is never less than a parser's), and an internal DTD subset
 * (where entity expansion lives) refused outright. Throws PlistLimitError past a limit.
 */
export function assertXmlShape(xml: string, limits: { maxDepth: number; maxElements: number }): void {
  const open: string[] = [];
  let elements = 0;
  let at = xml.indexOf('<');
  while (at >= 0 && at < xml.length) {
    const next = xml.charCodeAt(at + 1);
    if (xml.startsWith('<!--', at)) at = skipPast(xml, '-->', at + 4);
    else if (xml.startsWith('<![CDATA[', at)) at = skipPast(xml, ']]>', at + 9);
    else if (next === 0x3f /* ? */) at = skipPast(xml, '?>', at + 2);
    else if (next === 0x21 /* ! */) at = skipDeclaration(xml, at);
    else if (next === 0x2f /* / */) {
      const end = xml.indexOf('>', at);
      const name = xml.slice(at + 2, end < 0 ? xml.length : end).trimEnd();
      if (open[open.length - 1] === name) open.pop();
      at = end < 0 ? xml.length : end + 1;
    } else if (isNameStart(next)) {
      if (++elements > limits.maxElements) throw new PlistLimitError('too many XML elements');
      const nameEnd = nameEndOf(xml, at + 1);
      const end = tagEnd(xml, nameEnd);
      if (xml.charCodeAt(end - 1) !== 0x2f /* / */) {
        open.push(xml.slice(at + 1, nameEnd));
        if (open.length > limits.maxDepth) throw new PlistLimitError('XML nested too deep');
      }
      at = end + 1;
    } else {
      at += 1;
    }
    at = xml.indexOf('<', at);
  }
}

function skipPast(xml: string, terminator: string, from: number): number {
  const end = xml.indexOf(terminator, from);
  return end < 0 ? xml.length : end + terminator.length;
}

/** `<!DOCTYPE ...>` without an internal subset; anything with `[` is refused. */
function skipDeclaration(xml: string, at: number): number {
  const end = xml.indexOf('>', at);
  const bracket = xml.indexOf('[', at);
  if (bracket >= 0 && (end < 0 || bracket < end)) throw new PlistLimitError('XML internal DTD subsets are not read');
  return end < 0 ? xml.length : end + 1;
}

function isNameStart(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x3a || code > 0x7f
  );
}

function nameEndOf(xml: string, from: number): number {
  let at = from;
  while (at < xml.length) {
    const code = xml.charCodeAt(at);
    if (code === 0x3e || code === 0x2f || code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) break;
    at += 1;
  }
  return at;
}

/** Index of the `>` ending a start tag, quoted attribute values skipped (the document's end when there is none). */
function tagEnd(xml: string, from: number): number {
  let at = from;
  while (at < xml.length) {
    const code = xml.charCodeAt(at);
    if (code === 0x3e) return at;
    if (code === 0x22 || code === 0x27) {
      const close = xml.indexOf(code === 0x22 ? '"' : "'", at + 1);
      if (close < 0) return xml.length;
      at = close;
    }
    at += 1;
  }
  return xml.length;
}
