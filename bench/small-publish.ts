import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { createApiClient } from '../packages/cli/src/api-client.ts';
import { publishToPath } from '../packages/cli/src/commands/upload-direct.ts';
import { formBody } from '../packages/cli/src/direct-form.ts';
import { exited } from './lib/proc.ts';
import { fixed, median, MiB, msText, printTable, type Row } from './lib/report.ts';
import { recordResults } from './lib/results.ts';
import { startServer } from './lib/server.ts';

/**
 * Small publishes (issue 23): a 4 MB ipa published end to end, the CLI's way (its own code: one POST
 * /api/upload_app/direct naming the app by its path, streamed from disk) and the web's way (one multipart POST from memory, as the
 * browser's FormData), against a single-POST reference in the same run (lib/single-post-peer.ts: one multipart POST
 * streamed to disk, then the same inspector; what ipa-server v1 does). Alternating rounds, median of the ratios.
 */
const ROUNDS = 9;
// The options `npm start` gives the server bundle, when not run by run.mjs (which passes them to main.ts only).
if (process.env.BENCH_SERVER_NODE_ARGS === undefined) {
  const { serverEnv, serverNodeArgs } = (await import(
    path.resolve(import.meta.dirname, '../scripts/build-server.mjs')
  )) as {
    serverEnv: Record<string, string>;
    serverNodeArgs: string[];
  };
  process.env.BENCH_SERVER_NODE_ARGS = serverNodeArgs.join(' ');
  process.env.BENCH_SERVER_ENV = JSON.stringify(serverEnv);
}
const loadAtStart = os.loadavg();
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-small-publish-'));
const log = (line: string) => console.log(line);

const ipa = sampleIpa({ version: '4.0.0', extra: { 'Assets.car': randomBytes(4 * MiB - 200 * 1024) } });
const ipaFile = path.join(workDir, 'small.ipa');
fs.writeFileSync(ipaFile, ipa);

async function startPeer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = path.join(workDir, 'peer');
  fs.mkdirSync(dir);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'lib/single-post-peer.ts'), dir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(chunk.toString());
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the single-POST peer exited with ${code}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child, 10_000);
    },
  };
}

async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([ipa]), 'small.ipa');
  const res = await fetch(url, { method: 'POST', headers, body: form });
  const body = (await res.json()) as { code: number; msg?: string };
  if (body.code !== 200) throw new Error(`${url}: ${body.code} ${body.msg ?? ''}`);
}

const server = await startServer(path.join(workDir, 'data'));
const peer = await startPeer();
const rows: Row[] = [];
const notes: string[] = [];
try {
  const appPath = `small${Date.now()}`;
  const { appId } = await server.api<{ appId: number }>('POST', '/api/app', {
    appName: '小包发布',
    appType: 'native',
    password: '246813',
    path: appPath,
  });
  const { token } = await server.api<{ token: string }>('POST', '/api/api_token', { name: 'bench' });
  const cli = createApiClient({ server: server.url, token });
  const sides = {
    cli: async () => {
      await publishToPath(
        cli,
        appPath,
        formBody([['path', appPath]], { path: ipaFile, name: 'small.ipa', size: ipa.length }),
      );
    },
    web: () =>
      postForm(`${server.url}/api/upload_app/direct`, { appId: String(appId) }, { authorization: `Bearer ${token}` }),
    peer: () => postForm(peer.url, {}),
  };
  // One of each first: the server's inspection worker and both processes' code warm, as on a server in use.
  for (const run of Object.values(sides)) await run();
  const ms: Record<keyof typeof sides, number[]> = { cli: [], web: [], peer: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    const order: Array<keyof typeof sides> = round % 2 ? ['peer', 'web', 'cli'] : ['cli', 'web', 'peer'];
    for (const side of order) ms[side].push(await timed(sides[side]));
  }
  const row = (side: 'cli' | 'web', what: string): Row => {
    const ratios = ms[side].map((value, i) => (ms.peer[i] ?? NaN) / value);
    const ratio = median(ratios);
    return {
      metric: `publish a ${fixed(ipa.length / MiB, 1)} MiB ipa, ${what}`,
      ours: `${msText(median(ms[side]))} (${msText(Math.min(...ms[side]))}–${msText(Math.max(...ms[side]))})`,
      reference: `single-POST peer (bench/lib/single-post-peer.ts: stream to disk, same inspector): ${msText(median(ms.peer))} (${msText(Math.min(...ms.peer))}–${msText(Math.max(...ms.peer))})`,
      ratio: `${fixed(ratio)} (${fixed(Math.min(...ratios))}–${fixed(Math.max(...ratios))})`,
      target: 'peer / ours > 1',
      pass: ratio > 1,
    };
  };
  rows.push(
    row('cli', 'the CLI path (its code: one POST /api/upload_app/direct naming the app by path, from disk)'),
    row('web', 'the web path (one POST /api/upload_app/direct, FormData from memory)'),
  );
  notes.push(
    `${ROUNDS} alternating rounds after one warm-up of each; ours: the compiled server, SQLite, local disk, the package fsynced before it is answered; the peer keeps no database and does not fsync`,
  );
} finally {
  await peer.stop();
  await server.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
}
log(
  `\nsmall publishes: node ${process.version}, ${os.cpus().length} cores, load ${loadAtStart[0]?.toFixed(1)} at start, ${os.loadavg()[0]?.toFixed(1)} at the end`,
);
printTable(rows, log);
for (const note of notes) log(`- ${note}`);
recordResults('small publishes (bench/small-publish.ts)', rows, notes, loadAtStart);
