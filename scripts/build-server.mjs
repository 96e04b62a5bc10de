// `node scripts/build-server.mjs`: bundles the server (apps/server/src/main.ts and the workspace's TypeScript
// packages such as @release/contract) into apps/server/dist/main.mjs with a source map, the package
// inspection worker into apps/server/dist/inspect-worker.mjs beside it, and release-cli as one self-contained
// file, dist/release-cli.mjs (scripts/build-cli.mjs; the server serves it at GET /cli/release-cli.mjs). Every npm
// dependency of apps/server but `inlinedPackages` stays external, so native and optional packages (sharp, pg,
// @aws-sdk/*) load from node_modules at run time. `npm start` runs it with `serverNodeArgs` (below); `npm run dev` keeps running
// the sources under tsx.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildCliBundle } from './build-cli.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'apps/server');
export const serverBundle = path.join(serverDir, 'dist/main.mjs');

/**
 * Node's options for the bundle (`node ${serverNodeArgs} apps/server/dist/main.mjs`). The young generation is
 * capped at 2 MiB per semi-space: uploads stream through short-lived 64 KiB Buffers whose memory returns only when
 * a scavenge collects them, and V8 otherwise grows the young generation to 64 MiB or more under that load
 * (measured: peak RSS during 1 GiB of uploads 215-230 MiB by default, 170-180 MiB with this, upload speed
 * unchanged). No `--enable-source-maps`: Node parses the whole map of the bundle at start and keeps it (+17 MiB of
 * idle RSS, 129 → 146 MiB); stack traces are mapped to the TypeScript sources when first formatted instead
 * (apps/server/src/lib/stack-traces.ts).
 */
export const serverNodeArgs = ['--max-semi-space-size=2'];

/**
 * Environment for the server process that `npm start` and the bench give it (over the caller's). glibc's malloc
 * keeps an arena per thread that ever allocated (8 × cores): two are enough for a process whose JavaScript runs on
 * one thread, and idle RSS falls by ~4 MiB. The mmap and trim thresholds are fixed at glibc's own starting value
 * (128 KiB): left dynamic, the first large block freed (on a fresh start: during the migrations and first-run
 * setup) raises both to as much as 32 / 64 MiB, after which freed memory stays in the heap for the life of the
 * process (measured: idle RSS after a fresh start 122-125 → 105-107 MiB, a restart on the same data 106 either
 * way). The same holds between re-signings (quick re-sign bench, trim at 1 MiB: RSS when each job was done
 * 266/272/273 → 198/201/202 MiB).
 */
export const serverEnv = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

/**
 * Pure-JavaScript packages bundled into main.mjs rather than loaded from node_modules: kysely is 257 ES modules,
 * and each module Node loads separately costs memory of its own (idle RSS 128 → 125 MiB bundled).
 */
const inlinedPackages = new Set(['kysely']);

/** What the bundle is made from: a change to any of these makes it stale. */
const sources = [
  'apps/server/src',
  'apps/server/package.json',
  'packages/contract/src',
  'packages/contract/package.json',
  'packages/inspect/src',
  'packages/inspect/package.json',
  'packages/cli/src',
  'scripts/build-server.mjs',
  'scripts/build-cli.mjs',
];

function newestMtime(file) {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  return newest;
}

/** True when apps/server/dist/main.mjs is missing or older than one of its sources. */
export function serverIsStale() {
  if (!fs.existsSync(serverBundle)) return true;
  const built = fs.statSync(serverBundle).mtimeMs;
  return sources.some((source) => newestMtime(path.join(root, source)) > built);
}

/** The npm dependencies of the server and of the workspace packages it bundles (@release/inspect), minus those packages (TypeScript sources, bundled). */
function externalPackages() {
  const names = ['apps/server', 'packages/inspect'].flatMap((dir) =>
    Object.keys(JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')).dependencies ?? {}),
  );
  return [...new Set(names)].filter((name) => !name.startsWith('@release/') && !inlinedPackages.has(name));
}

/**
 * esbuild escapes strings but keeps comments and regular expressions as written, and one Chinese character makes V8
 * hold the whole 1.5 MB source as two bytes a character: escaped, it is held as one (−1.5 MiB of heap). The
 * characters left are in comments and regular expression literals, where `\\uXXXX` means the same.
 */
function asciiOnly(file) {
  const text = fs.readFileSync(file, 'utf8');
  const ascii = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) fs.writeFileSync(file, ascii);
}

export async function buildServer({ log = console.log } = {}) {
  const { build, stop } = await import('esbuild');
  const started = performance.now();
  // esbuild's service process would otherwise live as long as the caller; it is not needed after the build.
  const result = await build({
    // The package inspection worker (packages/inspect/src/worker/inspect-pool.ts) loads dist/inspect-worker.mjs beside the bundle.
    entryPoints: {
      main: path.join(serverDir, 'src/main.ts'),
      'inspect-worker': path.join(root, 'packages/inspect/src/worker/inspect-worker.ts'),
      // The operator commands (apps/server/src/admin), for installations without the sources (scripts/package.mjs).
      admin: path.join(serverDir, 'src/admin/main.ts'),
    },
    outdir: path.dirname(serverBundle),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // `pkg` external also covers `pkg/sub/path` (kysely/migration).
    external: externalPackages(),
    sourcemap: 'linked',
    // Stack traces need the mappings, not a copy of every source inside the map.
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
  }).finally(() => stop());
  // A package imported by the server but missing from its dependencies would end up bundled (and a native one broken).
  const bundled = Object.keys(result.metafile.inputs).filter((input) => {
    const parts = input.split(/[\\/]/);
    const at = parts.lastIndexOf('node_modules');
    return at >= 0 && !inlinedPackages.has(parts[at + 1] ?? '');
  });
  if (bundled.length > 0) {
    fs.rmSync(serverBundle, { force: true });
    throw new Error(
      `these files would be bundled; add their packages to apps/server/package.json dependencies:\n  ${bundled.join('\n  ')}`,
    );
  }
  for (const bundle of ['main.mjs', 'inspect-worker.mjs']) asciiOnly(path.join(path.dirname(serverBundle), bundle));
  const cli = await buildCliBundle();
  fs.writeFileSync(path.join(path.dirname(serverBundle), 'release-cli.mjs'), cli);
  const bytes = fs.statSync(serverBundle).size;
  log(
    `built ${path.relative(root, serverBundle)} (${(bytes / 1024).toFixed(0)} KiB), inspect-worker.mjs, admin.mjs and release-cli.mjs (${(cli.length / 1024).toFixed(0)} KiB) in ${(performance.now() - started).toFixed(0)} ms`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await buildServer();
}
