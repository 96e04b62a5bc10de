// `npm test`: type-checks, builds the web app and the server, runs every suite (unit, server on SQLite and
// PostgreSQL, browser), then the conformance suite over the shared fixtures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
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

// Cheap, first: an import cycle between the server's modules fails the run, naming it (scripts/module-cycles.ts).
run('module cycles', 'npx', ['tsx', 'scripts/module-cycles.ts']);
// Formatting and lint rules (biome.json), the type-aware ones included: `npm run lint:fix` applies the safe fixes.
run('lint and format', 'npx', ['biome', 'ci', '.']);
run('type-check', 'npx', ['tsc', '-p', 'packages/contract']);
run('type-check inspect', 'npx', ['tsc', '-p', 'packages/inspect']);
run('type-check cli', 'npx', ['tsc', '-p', 'packages/cli']);
run('type-check server', 'npx', ['tsc', '-p', 'apps/server']);
run('type-check web', 'npx', ['tsc', '-p', 'apps/web']);
run('type-check fakes', 'npx', ['tsc', '-p', 'tools/fakes']);
for (const dir of ['e2e', 'conformance', 'bench', 'scripts']) run(`type-check ${dir}`, 'npx', ['tsc', '-p', dir]);
run('build web', 'npm', ['run', 'build', '-w', 'apps/web']);
// What `npm start` runs; building it here catches a server import missing from apps/server's dependencies.
run('build server', process.execPath, ['scripts/build-server.mjs']);

// The conformance suite reads the real fixtures in ../shared (or FIXTURES_DIR); CI always has them.
const fixturesDir = path.resolve(root, process.env.FIXTURES_DIR ?? '../shared/fixtures');
const projectArgs = [];
if (!fs.existsSync(fixturesDir)) {
  console.log(`conformance: no fixtures at ${fixturesDir}; the conformance suite is not run here (CI has them).`);
  for (const name of ['unit', 'server', 'e2e']) projectArgs.push('--project', name);
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
