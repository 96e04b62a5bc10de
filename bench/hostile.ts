// `npx tsx bench/hostile.ts [--quick]` (also run by `npm run bench`): how the server answers its readers while hostile
// uploads are being parsed. A real server process (compiled, SQLite, as `npm start` runs it); readers keep
// `GET /api/apps` and the install page (`/package/<path>`) busy for a window, with and without two editors
// uploading the fuzz suite's costliest package over and over (enough to keep both inspection workers busy). The two
// sides alternate (reference, hostile, hostile, reference…) and each figure is the median over the rounds. Prints
// requests/s and p99 of each; asserts nothing.
import fs from 'node:fs';
import path from 'node:path';
import { hostilePackages } from '../apps/server/src/fuzz/campaigns-packages.ts';
import { heavyInfoPlistIpa } from '@release/inspect/testing/hostile/attacks.ts';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from '../e2e/helpers/api.ts';
import { E2E_ADMIN, startServerProcess } from '../e2e/helpers/server-process.ts';
import { fixed, median, msText, printTable, type Row } from './lib/report.ts';
import { recordResults } from './lib/results.ts';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 2 : 4;
const WINDOW_MS = quick ? 3_000 : 6_000;
/** Readers asking at once, each sending its next request when the last is answered. */
const READERS = 4;
/** Editors uploading hostile packages at once (INSPECT_WORKERS is 2 by default). */
const ATTACKERS = 2;
const root = path.resolve(import.meta.dirname, '..');

interface Window {
  perSecond: number;
  p99: number;
  count: number;
  failed: number;
}

/** READERS clients asking `url` back to back for WINDOW_MS: requests/s and p99 latency. */
async function readFor(url: string, headers: Record<string, string>): Promise<Window> {
  const latencies: number[] = [];
  let failed = 0;
  const until = performance.now() + WINDOW_MS;
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        try {
          const response = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
          await response.arrayBuffer();
          if (!response.ok) failed += 1;
        } catch {
          failed += 1;
        }
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / (WINDOW_MS / 1000),
    p99: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? NaN,
    count: latencies.length,
    failed,
  };
}

/** Editors publishing `bytes` over and over until `stop()`; `started` resolves once the first is being parsed. */
function attack(publish: () => Promise<unknown>) {
  let stopping = false;
  const outcomes = { published: 0, refused: 0 };
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const loops = Array.from({ length: ATTACKERS }, async () => {
    while (!stopping) {
      const pending = publish();
      markStarted();
      await pending.then(
        () => (outcomes.published += 1),
        () => (outcomes.refused += 1),
      );
    }
  });
  return {
    started,
    outcomes,
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

async function main(): Promise<void> {
  const server = await startServerProcess();
  try {
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const appId = await api.createApp(admin, { appName: '基准应用', path: 'bench', appType: 'native' });
    await api.publishPackage(admin, appId, 'bench.ipa', sampleIpa());
    const hostileApp = await api.createApp(admin, { appName: '恶意上传', path: 'hostile', appType: 'native' });
    // The fuzz suite's slowest packages: 65,000 entries (refused after reading them all) and a 1,000,000-key
    // Info.plist (within every limit: read whole and published, ~1 s and ~100 MB of a worker's heap each).
    const entries = hostilePackages(sampleIpa())
      .find((item) => item.label === 'ipa: 65,000 entries')
      ?.bytes();
    if (!entries) throw new Error('the 65,000-entry ipa is gone from the fuzz campaign');
    const heavy = heavyInfoPlistIpa(1_000_000);
    let turn = 0;
    const publishHostile = () =>
      api.publishPackage(admin, hostileApp, 'hostile.ipa', turn++ % 2 === 0 ? entries : heavy);

    const targets: Array<{ name: string; url: string; headers: Record<string, string> }> = [
      { name: 'GET /api/apps', url: `${server.url}/api/apps?pageNo=1&pageSize=20`, headers: { token: admin } },
    ];
    const install = await fetch(`${server.url}/package/bench`);
    await install.arrayBuffer();
    const hasInstallPage = install.ok && fs.existsSync(path.join(root, 'apps/web/dist/install.html'));
    if (hasInstallPage)
      targets.push({ name: 'install page /package/bench', url: `${server.url}/package/bench`, headers: {} });

    const results = new Map<string, { ours: Window[]; reference: Window[] }>(
      targets.map((target) => [target.name, { ours: [], reference: [] }]),
    );
    const totals = { published: 0, refused: 0 };
    const measureHostile = async () => {
      const attackers = attack(publishHostile);
      await attackers.started;
      for (const target of targets) results.get(target.name)?.ours.push(await readFor(target.url, target.headers));
      await attackers.stop();
      totals.published += attackers.outcomes.published;
      totals.refused += attackers.outcomes.refused;
    };
    const measureReference = async () => {
      for (const target of targets) results.get(target.name)?.reference.push(await readFor(target.url, target.headers));
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round % 2 === 0) {
        await measureReference();
        await measureHostile();
      } else {
        await measureHostile();
        await measureReference();
      }
    }

    const rows: Row[] = [];
    for (const target of targets) {
      const { ours, reference } = results.get(target.name) ?? { ours: [], reference: [] };
      const oursRate = median(ours.map((w) => w.perSecond));
      const refRate = median(reference.map((w) => w.perSecond));
      const oursP99 = median(ours.map((w) => w.p99));
      const refP99 = median(reference.map((w) => w.p99));
      const failed = [...ours, ...reference].reduce((sum, w) => sum + w.failed, 0);
      const rateRatio = median(ours.map((w, i) => w.perSecond / (reference[i]?.perSecond ?? NaN)));
      rows.push(
        {
          metric: `${target.name}: requests/s`,
          ours: `${oursRate.toFixed(0)}/s while parsing`,
          reference: `${refRate.toFixed(0)}/s idle`,
          ratio: `${fixed(rateRatio)}x`,
          target: '≥ 0.33x',
          pass: rateRatio >= 0.33 && failed === 0,
        },
        {
          metric: `${target.name}: p99`,
          ours: msText(oursP99),
          reference: msText(refP99),
          ratio: `${fixed(refP99 / oursP99)}x`,
          target: '≤ 1 s',
          pass: oursP99 <= 1000 && failed === 0,
        },
      );
      if (failed > 0) console.log(`${target.name}: ${failed} requests failed or were refused`);
    }
    console.log(
      `\nreaders while hostile uploads are parsed: ${ROUNDS} rounds × ${WINDOW_MS / 1000} s per side, ${READERS} readers, ${ATTACKERS} editors uploading`,
    );
    console.log(
      `hostile uploads finished in the windows: ${totals.refused} refused, ${totals.published} published (a 65,000-entry ipa and a 1,000,000-key Info.plist, alternately)`,
    );
    if (!hasInstallPage) console.log('install page: not measured (run `npm run build -w apps/web` first)');
    printTable(rows, (line) => console.log(line));
    recordResults(`readers while hostile uploads are parsed${quick ? ' (--quick)' : ''}`, rows, [
      `hostile uploads finished in the windows: ${totals.refused} refused, ${totals.published} published`,
    ]);
  } finally {
    await server.stop();
  }
}

await main();
