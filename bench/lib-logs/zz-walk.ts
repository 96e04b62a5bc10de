import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { buildHistory } from './git-history.ts';
import { readNewCommits, syncMirror } from '../../apps/server/src/integrations/git/git-mirror.ts';
const dir = '/tmp/exp/g/w';
fs.rmSync(dir, { recursive: true, force: true });
const n = Number(process.argv[2] ?? 19800);
const repo = buildHistory(`${dir}/repo`, n, Math.round(n / 99));
const mirror = `${dir}/mirror.git`;
let t = performance.now();
await syncMirror(repo.url, mirror, { allowFile: true });
console.log('clone', (performance.now() - t).toFixed(0));
for (const withFiles of [false, true, false, true]) {
  t = performance.now();
  const r = await readNewCommits(mirror, { branches: [], committers: [] }, () => false, { maxCommits: 200_000, withFiles });
  console.log('read', withFiles, r.commits.length, (performance.now() - t).toFixed(0));
}
t = performance.now();
execFileSync('git', [`--git-dir=${mirror}`, 'log', '--all', '--date-order', '-z', '--format=%x1e%H%x00%P%x00%an%x00%ae%x00%ct%x00%B'], { maxBuffer: 1e9 });
console.log('gitlog', (performance.now() - t).toFixed(0));
