import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * One inspection in a fresh process, so its peak RSS is its own: `inspect-child.ts ours|reference <file>`.
 * Prints JSON: the first (cold) call's time, the process's peak RSS before and after it, what was read (to
 * check both agree), and then the time of a second (warm) call in the same process.
 */

interface ReferenceResult {
  CFBundleIdentifier?: string;
  CFBundleShortVersionString?: string;
  icon?: string | null;
  mobileProvision?: { Name?: string };
}
type ReferenceParser = new (file: string) => { parse(): Promise<ReferenceResult> };

const [which, file] = process.argv.slice(2);
if ((which !== 'ours' && which !== 'reference') || !file)
  throw new Error('usage: inspect-child.ts ours|reference <file>');

/**
 * This process's own peak RSS: VmHWM of its address space. (getrusage's maxRSS is not: on Linux it starts at
 * the parent's peak, the bench's, because the child was forked from it before exec.)
 */
function maxRss(): number {
  try {
    const kib = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib) return Number(kib) * 1024;
  } catch {
    // Not Linux: fall back below.
  }
  return process.resourceUsage().maxRSS * 1024;
}
const baseline = maxRss();
let run: () => Promise<string>;
if (which === 'ours') {
  const { inspectPackage } = await import('@release/inspect');
  run = async () => {
    const result = await inspectPackage(file, { declaredName: path.basename(file) });
    if (result.kind !== 'ipa') throw new Error(`expected an ipa, got ${result.kind}`);
    return `${result.bundleId} ${result.version ?? '?'} icon=${result.icon ? 'yes' : 'no'} profile=${result.provisioningProfile?.name ?? 'none'}`;
  };
} else {
  const AppInfoParser = createRequire(import.meta.url)('app-info-parser') as ReferenceParser;
  run = async () => {
    const result = await new AppInfoParser(file).parse();
    return `${result.CFBundleIdentifier ?? '?'} ${result.CFBundleShortVersionString ?? '?'} icon=${result.icon ? 'yes' : 'no'} profile=${result.mobileProvision?.Name ?? 'none'}`;
  };
}
const started = performance.now();
const summary = await run();
const ms = performance.now() - started;
const peak = maxRss();
const again = performance.now();
await run();
process.stdout.write(JSON.stringify({ ms, warmMs: performance.now() - again, peak, baseline, summary }));
