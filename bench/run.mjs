#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --tsx] [-- --scale]`: runs bench/main.ts (uploads, inspection, downloads), then
// bench/commit-logs.ts, bench/git-ingest.ts, bench/install-page.ts, bench/hostile.ts, bench/retention.ts and
// bench/version-changes.ts (and with --scale,
// bench/scale.ts: the large-studio page latencies and the 4-process cluster, 40+ minutes). It checks the free space,
// builds what production runs (the server bundle, as `npm start` does, and the inspection child), makes a working
// directory, runs bench/main.ts under tsx, and removes the directory (it holds gigabytes) whatever happens. --tsx
// runs the server and the inspection children from their sources under tsx instead, as before the server was compiled.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, serverEnv, serverIsStale, serverNodeArgs } from '../scripts/build-server.mjs';

const GiB = 1024 ** 3;
const NEED_FULL = 12 * GiB;
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
  console.error(
    `not enough free space in ${os.tmpdir()} even for --quick (${(NEED_QUICK / GiB).toFixed(1)} GiB needed)`,
  );
  process.exit(1);
}

const root = path.resolve(import.meta.dirname, '..');
const fromSources = args.includes('--tsx');

/**
 * bench/inspect-child.ts as plain JavaScript (in .tmp, so its packages resolve from the repository), with the
 * inspector in a chunk of its own: loaded by the child's dynamic import, after its baseline RSS is read.
 */
async function bundleInspectChild() {
  const { build } = await import('esbuild');
  const outdir = path.join(root, '.tmp/bench');
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(root, 'bench/inspect-child.ts')],
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    // npm packages stay external (resolved from the repository); the workspace's own (@release/inspect) are
    // TypeScript sources, which plain node cannot load: they are bundled, as scripts/build-server.mjs does.
    plugins: [
      {
        name: 'npm-packages-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@release/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
    logLevel: 'warning',
  });
  return path.join(outdir, 'inspect-child.mjs');
}

const env = { ...process.env, BENCH_TSX: fromSources ? '1' : '0' };
if (!fromSources) {
  if (serverIsStale()) await buildServer();
  env.BENCH_SERVER_NODE_ARGS = serverNodeArgs.join(' ');
  env.BENCH_SERVER_ENV = JSON.stringify(serverEnv);
  env.BENCH_INSPECT_CHILD = await bundleInspectChild();
}
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-bench-'));
env.BENCH_DIR = workDir;
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/main.ts'), ...args], {
  cwd: root,
  stdio: 'inherit',
  env,
});
// Ctrl-C reaches the whole process group: the child stops its servers; this process waits, then cleans up.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolve) =>
  child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
);
fs.rmSync(workDir, { recursive: true, force: true });

// Workflows and update logs: list queries at 1,000,000 items, and ingest of a real git history against git log.
let logsCode = 0;
// `--only=transfer|inspect` runs one half of main.ts and nothing after it.
const logScripts = args.some((a) => a.startsWith('--only='))
  ? []
  : [
      'bench/commit-logs.ts',
      'bench/git-ingest.ts',
      'bench/install-page.ts',
      'bench/small-publish.ts',
      'bench/hostile.ts',
      'bench/resign.ts',
      'bench/retention.ts',
      'bench/version-changes.ts',
    ];
// The scale figures take 40+ minutes at full size (20 million update items on each database): only when asked.
if (args.includes('--scale')) logScripts.push('bench/scale.ts');
for (const script of logScripts) {
  const run = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, script), ...args.filter((a) => a === '--quick')],
    { cwd: root, stdio: 'inherit' },
  );
  const exit = await new Promise((resolve) =>
    run.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
  );
  if (exit !== 0) logsCode = exit;
}
process.exitCode = code || logsCode;
