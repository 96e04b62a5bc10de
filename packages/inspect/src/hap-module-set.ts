import { inspectionFailure } from './inspection-error.ts';
import { combinedHarmonyFacts } from './package-facts.ts';
import type { HapInspection } from './types.ts';

/** The module all others hang off: the entry module, else the first feature, else the first. */
export function mainModuleOf<T extends HapInspection>(modules: readonly T[]): T | undefined {
  return (
    modules.find((module) => module.modules[0]?.type === 'entry') ??
    modules.find((module) => module.kind === 'hap') ??
    modules[0]
  );
}

/**
 * Modules published together must be one version of one app: the same bundle name and version code (the device
 * refuses anything else), and no module twice. Throws a Chinese message naming the module that disagrees.
 */
export function assertOneAppVersion(modules: readonly { name: string; inspection: HapInspection }[]): void {
  const first = modules[0];
  if (!first) return;
  const seen = new Map<string, string>();
  for (const { name, inspection } of modules) {
    if (inspection.bundleName !== first.inspection.bundleName)
      throw inspectionFailure(
        'moduleMismatch',
        `${name} 的包名 ${inspection.bundleName} 与 ${first.name} 的 ${first.inspection.bundleName} 不同`,
      );
    if (inspection.versionCode !== first.inspection.versionCode)
      throw inspectionFailure(
        'moduleMismatch',
        `${name} 的 versionCode ${inspection.versionCode ?? '无'} 与 ${first.name} 的 ${first.inspection.versionCode ?? '无'} 不同`,
      );
    for (const module of inspection.modules) {
      const other = seen.get(module.name);
      if (other) throw inspectionFailure('moduleMismatch', `${name} 与 ${other} 是同一个模块 ${module.name}`);
      seen.set(module.name, name);
    }
  }
}

/**
 * One inspection for a set of modules of one version: the main module's app fields (label, icon, signature,
 * profile), every module listed (main first), the warnings of all. Call assertOneAppVersion first.
 */
export function combineModules(
  kind: HapInspection['kind'],
  modules: readonly { name: string; inspection: HapInspection }[],
  fileSize: number,
): HapInspection {
  const main = mainModuleOf(modules.map((module) => module.inspection));
  if (!main) throw inspectionFailure('missingAppBundle', '没有找到任何 HarmonyOS 模块（.hap / .hsp）');
  const ordered = [main, ...modules.map((module) => module.inspection).filter((inspection) => inspection !== main)];
  const fileNames = new Map(modules.map((module) => [module.inspection, module.name]));
  const others = ordered.slice(1);
  return {
    ...main,
    kind,
    fileSize,
    warnings: [...new Set(ordered.flatMap((inspection) => inspection.warnings))],
    modules: ordered.flatMap((inspection) =>
      inspection.modules.map((module) => ({ ...module, fileName: fileNames.get(inspection) ?? null })),
    ),
    ...(main.facts
      ? {
          facts: combinedHarmonyFacts(
            main.facts,
            others.flatMap((inspection) => (inspection.facts ? [inspection.facts] : [])),
            fileSize,
            others.flatMap((inspection) => inspection.modules),
          ),
        }
      : {}),
  };
}
