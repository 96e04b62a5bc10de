import { SUMMARY_TAB_ID, SUMMARY_TAB_NAME, type WorkflowRow } from '@release/contract';

/** A tab of the app page: a stored workflow, or the 工作流汇总 summary (row null). */
export interface WorkflowTab {
  id: number;
  tabName: string;
  row: WorkflowRow | null;
  /** The workflow ids the tab lists: its own id, or the summary's comma-joined ids. */
  workflowIds: string;
}

/**
 * The tabs in orderNo order; SPEC §2: the summary tab (id -1) comes first, only when more than one
 * tab has a repoType, and lists exactly those tabs.
 */
export function buildTabs(rows: readonly WorkflowRow[]): WorkflowTab[] {
  const ordered = [...rows].sort((a, b) => a.orderNo - b.orderNo || a.id - b.id);
  const tabs: WorkflowTab[] = ordered.map((row) => ({
    id: row.id,
    tabName: row.tabName,
    row,
    workflowIds: String(row.id),
  }));
  const withRepo = ordered.filter((row) => Boolean(row.repoType));
  if (withRepo.length <= 1) return tabs;
  const summaryId = withRepo.map((row) => row.id).join(',');
  return [{ id: SUMMARY_TAB_ID, tabName: SUMMARY_TAB_NAME, row: null, workflowIds: summaryId }, ...tabs];
}

/** The first of the candidates (a workflowId query, the remembered tab) that is a tab, else the first tab. */
export function pickTab(
  tabs: readonly WorkflowTab[],
  candidates: ReadonlyArray<string | number | null | undefined>,
): number | null {
  for (const candidate of candidates) {
    if (candidate === null || candidate === undefined || candidate === '') continue;
    const found = tabs.find((tab) => String(tab.id) === String(candidate));
    if (found) return found.id;
  }
  return tabs[0]?.id ?? null;
}

/** SPEC §4: after deleting a tab, the one before it, or the summary tab. */
export function tabAfterDelete(tabs: readonly WorkflowTab[], deletedId: number): number {
  const index = tabs.findIndex((tab) => tab.id === deletedId);
  const previous = index > 0 ? tabs[index - 1] : undefined;
  return previous?.id ?? SUMMARY_TAB_ID;
}

/** SPEC §4 reordering: the stored tabs' new 1-based orderNo; the summary tab is never sent. */
export function orderPayload(ids: readonly number[]): Array<{ id: number; orderNo: number }> {
  return ids.filter((id) => id !== SUMMARY_TAB_ID).map((id, index) => ({ id, orderNo: index + 1 }));
}

/** The list with the item at `from` moved to `to`. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved);
  return next;
}
