/**
 * Values a package may carry of the source state it was built from (issue 19): a commit id (7–64 hex digits) or an svn
 * revision (`r1024`), keyed as written — Info.plist top-level strings, the apk's `<application>` meta-data, the
 * top-level strings of a web zip's `version.json`. The server picks the key (its default list or the app's own).
 */
const SOURCE_VALUE = /^(?:[0-9a-f]{7,64}|r\d{1,10})$/i;
/** A package names at most this many (the rest are ignored), keys of at most 100 characters. */
export const MAX_SOURCE_VALUES = 20;

export function sourceValuesOf(entries: Iterable<[string, unknown]>): Record<string, string> | undefined {
  const found: Record<string, string> = {};
  let count = 0;
  for (const [key, value] of entries) {
    if (count >= MAX_SOURCE_VALUES) break;
    if (typeof value !== 'string' || key.length === 0 || key.length > 100 || Object.hasOwn(found, key)) continue;
    const text = value.trim();
    if (!SOURCE_VALUE.test(text)) continue;
    found[key] = text;
    count += 1;
  }
  return count > 0 ? found : undefined;
}
