import type { Row } from '../lib/report.ts';

export async function benchCluster(
  _workDir: string,
  _log: (line: string) => void,
  _onCleanUp: (clean: () => Promise<void>) => void,
): Promise<{ rows: Row[]; notes: string[] }> {
  throw new Error('not yet');
}
