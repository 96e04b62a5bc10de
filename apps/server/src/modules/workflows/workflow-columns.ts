import { z } from 'zod';
import { jsonColumn } from '../../db/json-column.ts';

/**
 * `workflows.committers`: the committer filter, a JSON list of names or emails. A damaged value reads as no filter
 * (every item shown), reported once as a process warning: the tab still lists and syncs.
 */
export const workflowColumns = {
  committers: jsonColumn('workflows.committers', z.array(z.string()), { fallback: () => [] }),
};

/** Two filters are the same when they encode the same (the stored text is compared, as the column holds it). */
export function sameCommitters(a: readonly string[], b: readonly string[]): boolean {
  return workflowColumns.committers.encode([...a]) === workflowColumns.committers.encode([...b]);
}
