// `npm start`: builds the web app and the server when they are missing or older than their sources, then runs
// the compiled server (`node --max-semi-space-size=2 apps/server/dist/main.mjs`, scripts/build-server.mjs). `npm run dev` runs the sources.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverBundle, serverEnv, serverIsStale, serverNodeArgs } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distIndex = path.join(root, 'apps/web/dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function webIsStale() {
  if (!fs.existsSync(distIndex)) return true;
  const built = fs.statSync(distIndex).mtimeMs;
  const sources = ['apps/web/src', 'apps/web/index.html', 'packages/contract/src'].map((p) => path.join(root, p));
  return sources.some((p) => (fs.statSync(p).isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs) > built);
}

// Signals (Ctrl-C, `kill <pid>`, a container stop) reach whichever child is running and this script ends with it:
// no build or server is left behind as an orphan. The `start` script runs this with `exec`, so npm's forwarded
// SIGTERM lands here rather than on the shell npm starts (which would die alone).
let current = null;
let stopping = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopping = signal;
    if (current) current.kill(signal);
    else process.exit(128 + os.constants.signals[signal]);
  });
}

/** Runs a child to its end; answers its exit code (128 + signal number when a signal ended it). */
function run(command, args, options) {
  return new Promise((resolve) => {
    current = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    current.on('exit', (code, signal) => {
      current = null;
      resolve(code ?? 128 + (os.constants.signals[signal] ?? 0));
    });
  });
}

function exitIfStopped(code) {
  if (stopping || code !== 0) process.exit(code || 128 + os.constants.signals[stopping]);
}

if (process.env.SKIP_WEB_BUILD !== '1' && webIsStale()) {
  console.log('Building the web app…');
  exitIfStopped(await run('npm', ['run', 'build', '-w', 'apps/web']));
}

if (serverIsStale()) {
  console.log('Building the server…');
  // In a child of its own: esbuild's service process ends with the build, not with the server.
  exitIfStopped(await run(process.execPath, [path.join(root, 'scripts/build-server.mjs')]));
}

process.exit(
  await run(process.execPath, [...serverNodeArgs, serverBundle], {
    env: { NODE_ENV: 'production', ...serverEnv, ...process.env },
  }),
);
