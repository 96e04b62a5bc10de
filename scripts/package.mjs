// `npm run package`: a self-contained directory and tarball that runs on a machine without npm or a compiler —
// the Node runtime this repository brings (node_modules/node), the built server (apps/server/dist: main, the
// inspection worker, admin, release-cli) and web app (apps/web/dist), and the server's production dependencies
// copied from node_modules as they were installed and tested (sharp's native parts included). Laid out like the
// repository, so the bundle finds the web app and its packages where `npm start` does.
//
//   node scripts/package.mjs [--out <dir>]   → <out>/release-system-<version>-linux-x64/ and its .tar.gz
//   <dir>/bin/release-system                 starts the server (same environment variables as `npm start`)
//   <dir>/bin/release-admin <command>        the operator commands (`npm run admin`)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServer, serverBundle, serverEnv, serverIsStale, serverNodeArgs } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The installed directory of `name` as Node resolves it from `fromDir` (a package's own folder). */
function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (dir === path.dirname(dir)) return null;
  }
}

/**
 * Every installed package the server needs at run time: its dependencies and theirs, optional ones when installed
 * (sharp's @img/* binaries for this platform), each as its path under the repository (node_modules/…, nested
 * node_modules kept). Workspace packages (@release/*) are bundled, not copied.
 */
export function productionPackages() {
  const manifest = (dir) => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const start = ['apps/server', 'packages/inspect'].flatMap((dir) =>
    Object.keys(manifest(path.join(root, dir)).dependencies ?? {}).map((name) => ({
      name,
      from: path.join(root, dir),
    })),
  );
  const found = new Set();
  const queue = start.filter(({ name }) => !name.startsWith('@release/'));
  while (queue.length > 0) {
    const { name, from, optional } = queue.shift();
    const dir = packageDir(name, from);
    if (dir === null) {
      if (optional) continue;
      throw new Error(`${name} (needed by ${path.relative(root, from) || 'the server'}) is not installed: run npm ci`);
    }
    if (found.has(dir)) continue;
    found.add(dir);
    const own = manifest(dir);
    for (const dep of Object.keys(own.dependencies ?? {})) queue.push({ name: dep, from: dir });
    for (const dep of Object.keys(own.optionalDependencies ?? {})) queue.push({ name: dep, from: dir, optional: true });
  }
  return [...found].map((dir) => {
    const relative = path.relative(root, dir);
    if (!relative.startsWith(`node_modules${path.sep}`))
      throw new Error(`${relative}: only packages under the root node_modules can be packaged`);
    return relative;
  });
}

function copyTree(from, to) {
  fs.cpSync(from, to, { recursive: true, dereference: true, preserveTimestamps: true });
}

const launcher = (entry) => `#!/bin/sh
# Runs ${entry} with the Node.js runtime shipped beside it; settings come from the environment (docs/configuration.md).
here=\${0%/*}
case "$here" in /*) ;; *) here="$PWD/$here" ;; esac
${Object.entries(serverEnv)
  .map(([name, value]) => `export ${name}="\${${name}:-${value}}"`)
  .join('\n')}
exec "$here/../node/bin/node" ${serverNodeArgs.join(' ')} "$here/../apps/server/dist/${entry}" "$@"
`;

export async function buildPackage({ out = path.join(root, '.tmp/package'), log = console.log } = {}) {
  const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version ?? '0.0.0';
  if (serverIsStale()) await buildServer({ log });
  const webIndex = path.join(root, 'apps/web/dist/index.html');
  if (!fs.existsSync(webIndex)) {
    const web = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
    if (web.status !== 0) throw new Error('building the web app failed');
  }
  const name = `release-system-${version}-${process.platform}-${process.arch}`;
  const dir = path.join(out, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });

  const runtime = createRequire(import.meta.url).resolve('node/package.json');
  copyTree(path.join(path.dirname(runtime), 'bin/node'), path.join(dir, 'node/bin/node'));
  fs.chmodSync(path.join(dir, 'node/bin/node'), 0o755);
  copyTree(path.dirname(serverBundle), path.join(dir, 'apps/server/dist'));
  copyTree(path.join(root, 'apps/web/dist'), path.join(dir, 'apps/web/dist'));
  const packages = productionPackages();
  for (const relative of packages) copyTree(path.join(root, relative), path.join(dir, relative));
  // A package's own nested node_modules are copied with it; their contents were walked above where needed.
  for (const [file, entry] of [
    ['release-system', 'main.mjs'],
    ['release-admin', 'admin.mjs'],
  ]) {
    fs.writeFileSync(path.join(dir, 'bin', file), launcher(entry), { mode: 0o755 });
  }
  fs.copyFileSync(path.join(root, 'docs/operations.md'), path.join(dir, 'OPERATIONS.md'));

  const tarball = path.join(out, `${name}.tar.gz`);
  const tar = spawnSync('tar', ['-czf', tarball, '-C', out, name], { stdio: 'inherit' });
  if (tar.status !== 0) throw new Error('tar failed');
  log(`packaged ${path.relative(root, dir)} (${packages.length} npm packages) and ${path.relative(root, tarball)}`);
  return { dir, tarball };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const at = process.argv.indexOf('--out');
  await buildPackage(at > 0 ? { out: path.resolve(process.argv[at + 1]) } : {});
}
