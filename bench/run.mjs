#!/usr/bin/env node
// `npm run bench [-- --quick]`: checks the free space, makes a working directory, runs bench/main.ts under
// tsx, and removes the directory (it holds gigabytes) whatever happens.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GiB = 1024 ** 3;
const NEED_FULL = 5 * GiB;
const NEED_QUICK = 1.5 * GiB;

const args = process.argv.slice(2);
const stat = fs.statfsSync(os.tmpdir());
const free = stat.bavail * stat.bsize;
console.log(`free space in ${os.tmpdir()}: ${(free / GiB).toFixed(1)} GiB`);
if (!args.includes('--quick') && free < NEED_FULL) {
  console.log(`less than ${NEED_FULL / GiB} GiB free: running with --quick sizes (256 MiB) instead`);
  args.push('--quick');
}
if (free < NEED_QUICK) {
  console.error(`not enough free space in ${os.tmpdir()} even for --quick (${(NEED_QUICK / GiB).toFixed(1)} GiB needed)`);
  process.exit(1);
}

const root = path.resolve(import.meta.dirname, '..');
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-bench-'));
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/main.ts'), ...args], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BENCH_DIR: workDir },
});
// Ctrl-C reaches the whole process group: the child stops its servers; this process waits, then cleans up.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolve) => child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
fs.rmSync(workDir, { recursive: true, force: true });
process.exitCode = code;
