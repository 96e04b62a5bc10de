import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectHap } from './hap-inspector.ts';
import { assertOneAppVersion, combineModules } from './hap-module-set.ts';
import { inspectionFailure } from './inspection-error.ts';
import type { HapInspection, InspectionLimits } from './types.ts';
import { openZipIndex, type ZipIndex } from './zip-index.ts';

/** A packed HarmonyOS app (.app): its pack.info and its modules as files at the root (docs/harmonyos.md). */
export const APP_PACK_INFO = 'pack.info';
const MODULE_FILE = /^[^/]+\.(hap|hsp)$/i;
const MAX_MODULES = 64;

/** Whether the names at the root make a packed .app: pack.info beside at least one .hap. */
export function isModuleFileName(name: string): boolean {
  return MODULE_FILE.test(name);
}

/**
 * Inspects every module inside a packed .app, one at a time: each is copied to a scratch file (at most
 * `maxEntryBytes`, like any entry read) and inspected as an uploaded .hap would be.
 */
export async function inspectHarmonyApp(zip: ZipIndex, limits: InspectionLimits): Promise<HapInspection> {
  const names = [...zip.entries.keys()].filter(isModuleFileName).sort();
  if (names.length === 0) throw inspectionFailure('missingAppBundle', '.app 中没有 .hap / .hsp 模块');
  if (names.length > MAX_MODULES) throw inspectionFailure('metadataUnreadable', `.app 中的模块超过 ${MAX_MODULES} 个`);
  const dir = await mkdtemp(join(tmpdir(), 'inspect-app-'));
  try {
    const modules: { name: string; inspection: HapInspection }[] = [];
    for (const [index, name] of names.entries()) {
      const path = join(dir, `${index}.hap`);
      await writeFile(path, await zip.readEntry(name, limits.maxEntryBytes));
      const inner = await openZipIndex(path, limits);
      try {
        modules.push({ name, inspection: await inspectHap(inner) });
      } finally {
        await inner.close();
        await rm(path, { force: true });
      }
    }
    assertOneAppVersion(modules);
    return combineModules('app', modules, zip.fileSize);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
