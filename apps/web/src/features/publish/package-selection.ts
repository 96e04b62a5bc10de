import { isUploadedTogether } from '@release/contract';

export const MAX_MODULES_TOGETHER = 32;

/**
 * What the package field keeps of a pick: the last file, or, while every file is of a kind uploaded together
 * (HarmonyOS modules), all of them (at most 32) as one version.
 */
export function keptPackages<T extends { name: string }>(list: readonly T[]): T[] {
  const last = list.at(-1);
  if (!last) return [];
  if (!isUploadedTogether(last.name)) return [last];
  const together: T[] = [];
  for (const entry of [...list].reverse()) {
    if (!isUploadedTogether(entry.name) || together.length >= MAX_MODULES_TOGETHER) break;
    if (!together.some((kept) => kept.name === entry.name)) together.unshift(entry);
  }
  return together;
}
