/**
 * Whether `error` (or one of its causes) is the server's disk being full: ENOSPC, or EDQUOT (a quota on the store's
 * folder). Those come only from writing to local disk — the blob store, a temporary copy — so they name their cause.
 */
export function isDiskFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
