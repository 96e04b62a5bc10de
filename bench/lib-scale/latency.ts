import { createHash } from 'node:crypto';
import { median, type Row } from '../lib/report.ts';
import { startServer, type BenchServer } from '../lib/server.ts';
import type { Studio } from './generate.ts';
import { INSTALL_PASSWORD, SPAN_MS, START_TIME } from './rows-sql.ts';

/**
 * What a person waits for on the pages of a large studio: the real server process on each generated data set, the
 * requests the web app sends for each page, timed one after another, alternating between the large and the small
 * data set request by request (a noisy neighbour slows both alike).
 */

export interface Page {
  name: string;
  /** Who asks: a member of 5 apps (user1), the admin, or a visitor (no sign-in). */
  as: 'member' | 'admin' | 'visitor';
  path: (studio: Studio) => string;
  /** The install page's token from the password answer, sent as the browser sends it. */
  installToken?: boolean;
  /** Informational: the answer itself grows with the data (the admin sees every app). */
  info?: string;
}

/** user1 is a member of app 1 (edit) and four others; workflow 1 is app 1's first update-log tab. */
export const PAGES: Page[] = [
  { name: 'app list (member of 5 apps)', as: 'member', path: () => '/api/apps?pageNo=1&pageSize=1000' },
  {
    name: 'app list (admin: every app)',
    as: 'admin',
    path: () => '/api/apps?pageNo=1&pageSize=1000',
    info: 'the admin sees every app: 100× the rows',
  },
  {
    name: 'app page: versions, first page',
    as: 'member',
    path: () => '/api/app_versions?appId=1&pageNo=1&pageSize=20',
  },
  { name: 'install page HTML', as: 'visitor', path: () => '/package/app-1' },
  { name: 'install page data', as: 'visitor', path: () => '/api/app_version?url=app-1', installToken: true },
  {
    name: 'update log, first page',
    as: 'member',
    path: () => '/api/commit_log_list?workflowIds=1&pageNo=1&pageSize=30&onlyCliff=true',
  },
  {
    name: 'update log, page 60 (pageNo)',
    as: 'member',
    path: () => '/api/commit_log_list?workflowIds=1&pageNo=60&pageSize=30&onlyCliff=true',
  },
  {
    name: 'update log, half-way back (cursor)',
    as: 'member',
    path: (studio) => `/api/commit_log_list?workflowIds=1&pageSize=30&onlyCliff=true&cursor=${halfWayCursor(studio)}`,
  },
];

/** The cursor of workflow 1's item half-way through its history (as nextCursor names it: `<commitTime>:<id>`). */
function halfWayCursor(studio: Studio): string {
  const workflows = studio.size.apps * studio.size.workflowsPerApp;
  const row = Math.floor(studio.size.items / 2 / workflows) * workflows;
  const step = Math.max(1, Math.floor(SPAN_MS / studio.size.items));
  return `${START_TIME + row * step}:${row + 1}`;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A running server on a studio, with the headers each kind of caller sends. */
interface Target {
  studio: Studio;
  server: BenchServer;
  headers: Record<Page['as'], Record<string, string>>;
  installToken: string;
}

async function json<T>(response: Response, what: string): Promise<T> {
  const body = (await response.json()) as { code: number; msg: string; data: T };
  if (body.code !== 200) throw new Error(`${what}: ${body.code} ${body.msg}`);
  return body.data;
}

async function open(studio: Studio): Promise<Target> {
  const server = await startServer(studio.dataDir, [], studio.env);
  const login = async (username: string) =>
    (
      await json<{ token: string }>(
        await fetch(`${server.url}/api/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password: sha('bench-admin-pass') }),
        }),
        `login ${username}`,
      )
    ).token;
  const [member, admin] = [await login('user1'), await login('admin')];
  const install = await json<{ token?: string }>(
    await fetch(`${server.url}/api/app_version?url=app-1&password=${INSTALL_PASSWORD}`),
    'install page with password',
  );
  return {
    studio,
    server,
    headers: { member: { token: member }, admin: { token: admin }, visitor: {} },
    installToken: install.token ?? '',
  };
}

async function timeOnce(target: Target, page: Page): Promise<number> {
  const headers = {
    ...target.headers[page.as],
    ...(page.installToken ? { 'app-version-token': target.installToken } : {}),
  };
  const started = performance.now();
  const response = await fetch(`${target.server.url}${page.path(target.studio)}`, { headers });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${page.name}: HTTP ${response.status} ${body.slice(0, 200)}`);
  if (body.startsWith('{')) {
    const envelope = JSON.parse(body) as { code: number; msg: string };
    if (envelope.code !== 200) throw new Error(`${page.name}: ${envelope.code} ${envelope.msg}`);
  }
  return ms;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

export interface PageTiming {
  page: Page;
  large: { p50: number; p95: number };
  small: { p50: number; p95: number };
  /** Median over the rounds of (large p95 / small p95): a round that a neighbour slowed counts once, not in every figure. */
  ratio: number;
}

const ROUNDS = 5;
const WARM_UP = 20;

/**
 * Every page on both servers: WARM_UP untimed calls each, then `samples` timed ones in ROUNDS rounds, alternating
 * large and small request by request.
 */
export async function timePages(
  large: Studio,
  small: Studio,
  samples: number,
  log: (line: string) => void,
): Promise<PageTiming[]> {
  const targets = [await open(large), await open(small)] as const;
  try {
    const out: PageTiming[] = [];
    for (const page of PAGES) {
      for (let i = 0; i < WARM_UP; i += 1) for (const target of targets) await timeOnce(target, page);
      const all: [number[], number[]] = [[], []];
      const ratios: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const times: [number[], number[]] = [[], []];
        for (let i = 0; i < Math.ceil(samples / ROUNDS); i += 1) {
          const order = i % 2 === 0 ? [0, 1] : [1, 0];
          for (const side of order) times[side as 0 | 1].push(await timeOnce(targets[side as 0 | 1], page));
        }
        ratios.push(percentile(times[0], 95) / percentile(times[1], 95));
        all[0].push(...times[0]);
        all[1].push(...times[1]);
      }
      const stats = (t: number[]) => ({ p50: median(t), p95: percentile(t, 95) });
      const timing = { page, large: stats(all[0]), small: stats(all[1]), ratio: median(ratios) };
      log(
        `    ${page.name}: p95 ${timing.large.p95.toFixed(1)} ms / ${timing.small.p95.toFixed(1)} ms (median ${timing.large.p50.toFixed(1)} / ${timing.small.p50.toFixed(1)}), per-round p95 ratios ${ratios.map((r) => r.toFixed(2)).join(' ')}`,
      );
      out.push(timing);
    }
    return out;
  } finally {
    for (const target of targets) await target.server.stop();
  }
}

/** The table rows: p95 at full size against p95 at 1/100, target ≤ 2× (informational pages go to the notes). */
export function latencyRows(dialect: string, timings: PageTiming[], largeLabel: string, smallLabel: string): Row[] {
  return timings
    .filter((t) => !t.page.info)
    .map(({ page, large, small, ratio }) => ({
      metric: `${dialect}: ${page.name}, p95 (median)`,
      ours: `${large.p95.toFixed(1)} ms (${large.p50.toFixed(1)}) at ${largeLabel}`,
      reference: `${small.p95.toFixed(1)} ms (${small.p50.toFixed(1)}) at ${smallLabel}`,
      ratio: `${ratio.toFixed(2)}×`,
      target: '≤ 2×',
      pass: ratio <= 2,
    }));
}

/** The informational pages as notes (their answers grow with the data by design). */
export function latencyNotes(dialect: string, timings: PageTiming[]): string[] {
  return timings
    .filter((t) => t.page.info)
    .map(
      ({ page, large, small, ratio }) =>
        `${dialect}: ${page.name}: p95 ${large.p95.toFixed(1)} ms vs ${small.p95.toFixed(1)} ms (${ratio.toFixed(1)}×; ${page.info})`,
    );
}
