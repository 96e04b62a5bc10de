const HISTORY_KEY = 'cacheUserHistory';

type WorkflowHistory = Record<string, string>;

function readHistory(): WorkflowHistory {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const history: WorkflowHistory = {};
    for (const [path, workflowId] of Object.entries(parsed)) {
      if (typeof workflowId === 'string' || typeof workflowId === 'number') history[path] = String(workflowId);
    }
    return history;
  } catch {
    return {};
  }
}

/** Remembers the last workflow opened for an app path (SPEC §2 appWithPath). */
export function cacheWorkflowId(appPath: string, workflowId: string): void {
  const history = readHistory();
  if (history[appPath] === workflowId) return;
  history[appPath] = workflowId;
  localStorage.setItem(HISTORY_KEY, JSON.stringify(history));
}

export function readCachedWorkflowId(appPath: string): string | null {
  return readHistory()[appPath] ?? null;
}
