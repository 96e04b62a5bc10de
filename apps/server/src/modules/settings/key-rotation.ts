import { createSecretBox, SealedValueError } from '../../lib/secret-box.ts';
import { SEALED_COLUMNS, type SealedValuesRepository } from './sealed-values.repository.ts';

export interface ResealReport {
  /** Values moved onto the current key. */
  resealed: number;
  /** Values already under the current key. */
  current: number;
  /** Values no key opens (they were unreadable before the rotation too): where they are. */
  unreadable: Array<{ table: string; column: string; id: number }>;
}

const PAGE = 500;

/**
 * Seals every stored secret again with the current key, reading it with the current or a previous key. Each value is
 * replaced on its own (compare-and-set), so a crash anywhere leaves every value under one of the keys still listed;
 * running it again finishes the work. Passes repeat until a pass finds nothing left under a previous key.
 */
export async function resealAll(deps: {
  sealed: SealedValuesRepository;
  current: string;
  previous: readonly string[];
}): Promise<ResealReport> {
  const box = createSecretBox(deps.current, deps.previous);
  const report: ResealReport = { resealed: 0, current: 0, unreadable: [] };
  for (let pass = 0; pass < 5; pass += 1) {
    let movedThisPass = 0;
    let raced = 0;
    report.current = 0;
    report.unreadable = [];
    for (const target of SEALED_COLUMNS) {
      for (let after = 0; ; ) {
        const rows = await deps.sealed.page(target, after, PAGE);
        if (!rows.length) break;
        for (const row of rows) {
          let next: string | null;
          try {
            next = box.reseal(row.value);
          } catch (error) {
            if (!(error instanceof SealedValueError)) throw error;
            report.unreadable.push({ table: target.table, column: target.column, id: row.id });
            continue;
          }
          if (next === null) report.current += 1;
          else if (await deps.sealed.replace(target, row.id, row.value, next)) movedThisPass += 1;
          else raced += 1;
        }
        after = rows[rows.length - 1]?.id ?? after;
      }
    }
    report.resealed += movedThisPass;
    // A value changed under us (an edit while rotating) is read again by the next pass.
    if (raced === 0) return report;
  }
  return report;
}
