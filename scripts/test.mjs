// `npm test`: type-checks, builds the web app and the server, runs every suite (unit, server on SQLite and
// PostgreSQL, browser), then the conformance suite over the shared fixtures.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extraArgs = process.argv.slice(2);

function run(label, command, args) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`✗ ${label} failed`);
    process.exit(result.status ?? 1);
  }
}

/**
 * Runs the steps `width` at a time, longest first, each one's output printed whole when it ends (never
 * interleaved); the first failure fails the run once the running ones end. Type-checks are single-threaded:
 * one after another they took ~3 minutes on CI's 2 cores while the second core idled.
 */
async function runAll(steps, width) {
  const queue = [...steps];
  const failed = [];
  const started = Date.now();
  async function worker() {
    for (let step = queue.shift(); step && failed.length === 0; step = queue.shift()) {
      const begun = Date.now();
      const code = await new Promise((resolve) => {
        const child = spawn(step.command, step.args, { cwd: root, env: process.env });
        const output = [];
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.on('error', (error) => output.push(Buffer.from(String(error))));
        child.on('close', (status) => {
          const seconds = ((Date.now() - begun) / 1000).toFixed(1);
          console.log(`\n▶ ${step.label} (${seconds} s)`);
          process.stdout.write(Buffer.concat(output));
          resolve(status ?? 1);
        });
      });
      if (code !== 0) {
        console.error(`✗ ${step.label} failed`);
        failed.push(code);
      }
    }
  }
  await Promise.all(Array.from({ length: width }, worker));
  console.log(`\n${steps.length} steps in ${((Date.now() - started) / 1000).toFixed(1)} s, ${width} at a time`);
  if (failed.length) process.exit(failed[0]);
}

// Cheap, first: an import cycle between the server's modules fails the run, naming it (scripts/module-cycles.ts).
run('module cycles', 'npx', ['tsx', 'scripts/module-cycles.ts']);
const tsc = (dir) => ({ label: `type-check ${dir}`, command: 'npx', args: ['tsc', '-p', dir] });
await runAll(
  [
    // Longest first (CPU seconds on a quiet machine), so the two lanes end together.
    tsc('apps/server'),
    tsc('apps/web'),
    // What `npm start` serves; the browser suite needs it.
    { label: 'build web', command: 'npm', args: ['run', 'build', '-w', 'apps/web'] },
    tsc('e2e'),
    tsc('conformance'),
    tsc('bench'),
    // Formatting and lint rules (biome.json), the type-aware ones included: `npm run lint:fix` applies the safe fixes.
    { label: 'lint and format', command: 'npx', args: ['biome', 'ci', '.'] },
    tsc('tools/fakes'),
    tsc('packages/cli'),
    tsc('scripts'),
    tsc('packages/inspect'),
    tsc('packages/contract'),
    // What `npm start` runs; building it here catches a server import missing from apps/server's dependencies.
    { label: 'build server', command: process.execPath, args: ['scripts/build-server.mjs'] },
  ],
  Math.max(2, Math.min(os.availableParallelism(), 4)),
);

// The conformance suite reads the real fixtures in ../shared (or FIXTURES_DIR); CI always has them.
const fixturesDir = path.resolve(root, process.env.FIXTURES_DIR ?? '../shared/fixtures');
const projectArgs = [];
if (!fs.existsSync(fixturesDir)) {
  console.log(`conformance: no fixtures at ${fixturesDir}; the conformance suite is not run here (CI has them).`);
  for (const name of ['unit', 'server', 'server-alone', 'e2e', 'e2e-alone']) projectArgs.push('--project', name);
}

const report = path.join(root, '.tmp/vitest-report.json');
fs.mkdirSync(path.dirname(report), { recursive: true });
const vitest = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...projectArgs,
    ...extraArgs,
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  },
);
if (fs.existsSync(report)) {
  const summary = JSON.parse(fs.readFileSync(report, 'utf8'));
  console.log(`\n${summary.numPassedTests} passed, ${summary.numFailedTests} failed`);
}
process.exit(vitest.status ?? 1);
