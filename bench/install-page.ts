// `npx tsx bench/install-page.ts` (also run by `npm run bench`): how soon a tester's phone on Chrome's "Fast 3G"
// profile sees the install page's password box, next to how soon the console's login page shows its username box on
// the same profile in the same run (the console's React + antd bundle: what the install page loaded before it became
// its own entry). Also the compressed script and style each page needs for that first paint. Needs the built web app
// (`npm run build -w apps/web`); prints a table, asserts nothing.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from '../e2e/helpers/api.ts';
import { launchBrowser, newPage } from '../e2e/helpers/browser.ts';
import { FAST_3G, throttle } from '../e2e/helpers/network.ts';
import { E2E_ADMIN, startServerProcess } from '../e2e/helpers/server-process.ts';
import { fixed, median, msText, printTable, type Row } from './lib/report.ts';
import { recordResults } from './lib/results.ts';

const ROUNDS = 5;
const TARGET_MS = 2_000;
const BUDGET_BYTES = 60 * 1024;
const root = path.resolve(import.meta.dirname, '..');

if (!fs.existsSync(path.join(root, 'apps/web/dist/install.html'))) {
  console.error('install page bench: apps/web/dist/install.html is missing; run `npm run build -w apps/web` first');
  process.exit(1);
}

/** Opens `route` on a fresh throttled page; answers the ms until `testId` is visible and the compressed bytes of the scripts and styles loaded by then. */
async function firstPaint(
  browser: Browser,
  baseUrl: string,
  route: string,
  testId: string,
): Promise<{ ms: number; bytes: number }> {
  const { context, page } = await newPage(browser, baseUrl, { width: 390, height: 844 });
  await throttle(page, FAST_3G);
  const assets = new Set<string>();
  page.on('request', (request) => {
    if (['script', 'stylesheet'].includes(request.resourceType())) assets.add(request.url());
  });
  const started = performance.now();
  await page.goto(route, { waitUntil: 'commit' });
  await page.getByTestId(testId).waitFor({ timeout: 60_000 });
  const ms = performance.now() - started;
  const loaded = [...assets];
  await context.close();
  let bytes = 0;
  for (const url of loaded) bytes += gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length;
  return { ms, bytes };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const server = await startServerProcess();
  const browser = await launchBrowser();
  try {
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const appId = await api.createApp(admin, { appName: '基准应用', path: 'bench', appType: 'native' });
    await api.publishPackage(admin, appId, 'bench.ipa', sampleIpa());
    const ours: Array<{ ms: number; bytes: number }> = [];
    const reference: Array<{ ms: number; bytes: number }> = [];
    // Alternately, so that a noisy neighbour slows both sides alike.
    for (let round = 0; round < ROUNDS; round += 1) {
      const install = () => firstPaint(browser, server.url, '/package/bench', 'install-password');
      const login = () => firstPaint(browser, server.url, '/login', 'login-username');
      if (round % 2 === 0) {
        ours.push(await install());
        reference.push(await login());
      } else {
        reference.push(await login());
        ours.push(await install());
      }
    }
    const oursMs = median(ours.map((m) => m.ms));
    const refMs = median(reference.map((m) => m.ms));
    const ratio = median(ours.map((m, i) => (reference[i]?.ms ?? NaN) / m.ms));
    const oursBytes = median(ours.map((m) => m.bytes));
    const rows: Row[] = [
      {
        metric: 'Fast 3G: password box shown (390 px)',
        ours: msText(oursMs),
        reference: `${msText(refMs)} (console /login box)`,
        ratio: `${fixed(ratio)}x`,
        target: `≤ ${msText(TARGET_MS)}`,
        pass: oursMs <= TARGET_MS,
      },
      {
        metric: 'first paint: gzip JS + CSS',
        ours: kb(oursBytes),
        reference: `${kb(median(reference.map((m) => m.bytes)))} (console /login)`,
        ratio: 'n/a',
        target: `≤ ${kb(BUDGET_BYTES)}`,
        pass: oursBytes <= BUDGET_BYTES,
      },
    ];
    console.log(`\ninstall page first paint, ${ROUNDS} rounds each, Chromium "Fast 3G" (562.5 ms RTT, 1.44 Mbps down)`);
    printTable(rows, (line) => console.log(line));
    recordResults('install page on Fast 3G', rows);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
