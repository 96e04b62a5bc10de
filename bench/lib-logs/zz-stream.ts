import fs from 'node:fs';
import { readNewCommits } from '../../apps/server/src/integrations/git/git-mirror.ts';
import { timeGitLog } from './git-history.ts';
const gitDir = '/tmp/exp/g/t/mirror.git';
async function time(label: string, fn: () => Promise<unknown>) { const t = performance.now(); await fn(); console.log(label, ((performance.now() - t) / 1000).toFixed(2), 's'); }
for (let round = 0; round < 3; round++) {
  console.log('git log', (timeGitLog(gitDir, false) / 1000).toFixed(2), 'with files', (timeGitLog(gitDir, true) / 1000).toFixed(2));
  await time('readNewCommits no files', () => readNewCommits(gitDir, { branches: [], committers: [] }, () => false, { maxCommits: 200000, withFiles: false }));
  await time('readNewCommits files', () => readNewCommits(gitDir, { branches: [], committers: [] }, () => false, { maxCommits: 200000 }));
  await time('readNewCommits all seen', () => readNewCommits(gitDir, { branches: [], committers: [] }, () => true, { maxCommits: 200000 }));
}
