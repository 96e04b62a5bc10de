import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { putParts, type PartUrl } from './lib/http-client.ts';
import { fromSources } from './lib/proc.ts';
import { median, msText, printTable, skipped, type Row } from './lib/report.ts';
import { recordResults } from './lib/results.ts';
import { ADMIN, startServer, type BenchServer } from './lib/server.ts';

/**
 * `npx tsx bench/web-size.ts [--no-build] [--files]` (also run by `npm run bench`): what a browser downloads before the
 * console (/login, and /home/app, which opens the app's page) and the install page (/package/<path>) are usable, and how
 * long that takes over Chromium's "Fast 3G" emulation. Figures next to their budgets; nothing asserted.
 */

const KB = 1000;
const CONSOLE_BUDGET = 400 * KB;
const INSTALL_BUDGET = 60 * KB;
const ROUNDS = 3;
/** DevTools' "Fast 3G" preset (front_end/core/sdk/NetworkManager.ts): 1.6 Mbit/s × 0.9 down, 750 kbit/s × 0.9 up, 150 ms × 3.75 latency. */
const FAST_3G = {
  offline: false,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
  latency: 150 * 3.75,
};

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const log = (line: string) => process.stdout.write(`${line}\n`);
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** The files an HTML entry (or an entry and a lazy page of it) loads before any other lazy import: their scripts, every static import (transitively), their CSS. */
function entryFiles(manifest: Record<string, ManifestChunk>, ...keys: string[]): string[] {
  const files = new Set<string>();
  const visit = (name: string) => {
    const chunk = manifest[name];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) {
    if (!manifest[key]) throw new Error(`${key} is not in the Vite manifest`);
    visit(key);
  }
  return [...files];
}

/** Brotli (quality 11) and gzip (level 9) sizes of built files: what the server sends when they are precompressed. */
function compressedSizes(files: string[]): { raw: number; br: number; gz: number; js: number; css: number } {
  let raw = 0;
  let br = 0;
  let gz = 0;
  let js = 0;
  let css = 0;
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(dist, file));
    const brBytes = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    raw += bytes.length;
    br += brBytes;
    gz += zlib.gzipSync(bytes, { level: 9 }).length;
    if (file.endsWith('.css')) css += brBytes;
    else js += brBytes;
  }
  return { raw, br, gz, js, css };
}

interface Load {
  /** From navigation start until the usable element is in the page. */
  usableMs: number;
  /** Bytes on the wire (headers included), by kind, of what was fetched until then. */
  js: number;
  css: number;
  other: number;
  encodings: Set<string>;
  /** Each script fetched until then, with its size on the wire. */
  scripts: string[];
}

/** One cold load (fresh context, empty cache) of `url` under Fast 3G, until `selector` is in the page. */
async function throttledLoad(
  browser: Browser,
  baseUrl: string,
  url: string,
  selector: string,
  storage: Record<string, string>,
): Promise<Load> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 800 },
    locale: 'zh-CN',
  });
  try {
    // The session first (as the login page leaves it), then a watch that notes when the usable element appears.
    await context.addInitScript({
      content: `for (const [k, v] of Object.entries(${JSON.stringify(storage)})) localStorage.setItem(k, v);
        new MutationObserver((records, observer) => {
          if (document.querySelector(${JSON.stringify(selector)})) { window.usableAt = performance.now(); observer.disconnect(); }
        }).observe(document, { childList: true, subtree: true });`,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    const types = new Map<string, { type: string; encoding: string; url: string }>();
    const sizes = new Map<string, number>();
    cdp.on('Network.responseReceived', (event) => {
      const headers = Object.fromEntries(
        Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
      );
      types.set(event.requestId, {
        type: event.type,
        encoding: headers['content-encoding'] ?? 'identity',
        url: event.response.url,
      });
    });
    cdp.on('Network.loadingFinished', (event) => sizes.set(event.requestId, event.encodedDataLength));
    await page.goto(url, { waitUntil: 'commit' });
    // A locator and a function, not a string predicate: the page's CSP (no 'unsafe-eval') refuses evaluated strings.
    await page.locator(selector).first().waitFor({ state: 'attached', timeout: 120_000 });
    const usableMs = Number(await page.evaluate(() => (globalThis as unknown as { usableAt?: number }).usableAt));
    const load: Load = { usableMs, js: 0, css: 0, other: 0, encodings: new Set(), scripts: [] };
    for (const [id, size] of sizes) {
      const info = types.get(id);
      if (info?.type === 'Script') {
        load.js += size;
        load.scripts.push(`${path.basename(new URL(info.url).pathname)} ${kb(size)}`);
      } else if (info?.type === 'Stylesheet') load.css += size;
      else load.other += size;
      if (info?.type === 'Script' || info?.type === 'Stylesheet') load.encodings.add(info.encoding);
    }
    return load;
  } finally {
    await context.close();
  }
}

/** An app with one published apk, so /home/app opens its page and /package/<path> lists a version. */
async function seedApp(server: BenchServer): Promise<string> {
  const appPath = `web${Date.now()}`;
  const app = await server.api<{ appId: number }>('POST', '/api/app', {
    appName: '基准应用',
    appType: 'native',
    password: '246813',
    path: appPath,
  });
  const bytes = sampleApk();
  const keys = await server.api<{ appFile: { fileKey: string } }>('POST', '/api/get_signed_url', {
    appFileName: 'bench.apk',
  });
  const fileKey = keys.appFile.fileKey;
  const start = await server.api<{ uploadId: string; partSize: number; uploadParamsList: PartUrl[] }>(
    'POST',
    '/api/multi_signed_url_upload',
    { functionName: 'start', fileKey, fileSize: bytes.length },
  );
  const tags = await putParts(start.uploadParamsList, bytes, start.partSize, 1);
  await server.api('POST', '/api/multi_signed_url_upload', {
    functionName: 'finish',
    fileKey,
    uploadId: start.uploadId,
    tags,
  });
  await server.api('POST', '/api/v2/upload_app', { appId: app.appId, s3Url: fileKey, description: 'bench' });
  return appPath;
}

function sizeRow(metric: string, bytes: number, budget: number, note: string): Row {
  return {
    metric,
    ours: kb(bytes),
    reference: note,
    ratio: (bytes / budget).toFixed(2),
    target: `<= ${kb(budget)}`,
    pass: bytes <= budget,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  log(
    `web size bench: node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(1)}; Fast 3G = ${(FAST_3G.downloadThroughput / KB).toFixed(0)} KB/s down, ${FAST_3G.latency} ms latency`,
  );
  if (!args.includes('--no-build')) {
    log('building the web app (npm run build -w apps/web)');
    const built = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (built.status !== 0) throw new Error('the web build failed');
  }
  if (!fromSources) {
    // The compiled server, as `npm start` and the other benches run it (rebuilt only when stale).
    const built = spawnSync(
      process.execPath,
      ['-e', "const m = await import('./scripts/build-server.mjs'); if (m.serverIsStale()) await m.buildServer();"],
      { cwd: root, stdio: 'inherit' },
    );
    if (built.status !== 0) throw new Error('the server build failed');
  }
  const manifestFile = path.join(dist, '.vite/manifest.json');
  const manifest = fs.existsSync(manifestFile)
    ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>)
    : null;
  if (!manifest) throw new Error(`${manifestFile} is missing (build.manifest in apps/web/vite.config.ts)`);
  const installEntry = Object.keys(manifest).find(
    (key) => manifest[key]?.isEntry && key.endsWith('.html') && key !== 'index.html',
  );

  const rows: Row[] = [];
  const consoleStatic = compressedSizes(entryFiles(manifest, 'index.html'));
  log(
    `console entry (index.html and its static imports): ${kb(consoleStatic.raw)} raw, ${kb(consoleStatic.br)} brotli, ${kb(consoleStatic.gz)} gzip`,
  );
  rows.push(
    sizeRow(
      'console entry JS+CSS, brotli (static imports)',
      consoleStatic.br,
      CONSOLE_BUDGET,
      `gzip ${kb(consoleStatic.gz)}, raw ${kb(consoleStatic.raw)}`,
    ),
  );
  // The console's routes as a first visit meets them: the entry plus the page's lazy chunk and its static imports.
  for (const [route, page] of [
    ['/login', 'src/features/auth/login.page.tsx'],
    ['/home/app/<path>', 'src/features/apps/app.page.tsx'],
  ] as const) {
    const routeStatic = compressedSizes(entryFiles(manifest, 'index.html', page));
    rows.push(
      sizeRow(
        `console ${route}: entry + page JS+CSS, brotli (static imports)`,
        routeStatic.br,
        CONSOLE_BUDGET,
        `gzip ${kb(routeStatic.gz)}, raw ${kb(routeStatic.raw)}`,
      ),
    );
  }
  const installStatic = installEntry ? compressedSizes(entryFiles(manifest, installEntry)) : null;
  if (installStatic)
    rows.push(
      sizeRow(
        `install entry (${installEntry}) JS+CSS, brotli`,
        installStatic.br,
        INSTALL_BUDGET,
        `gzip ${kb(installStatic.gz)}, raw ${kb(installStatic.raw)}`,
      ),
    );
  else
    rows.push(
      skipped('install entry JS+CSS, brotli', `<= ${kb(INSTALL_BUDGET)}`, 'no install entry in the Vite manifest'),
    );

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-web-bench-'));
  let server: BenchServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startServer(path.join(workDir, 'data'));
    const appPath = await seedApp(server);
    // The console's session as the login page keeps it (apps/web/src/app/session.store.ts).
    const login = await server.api<{
      token: string;
      username: string;
      tokenTime: number;
      roleLevel: number;
      userId: number;
    }>('POST', '/api/user/login', {
      username: ADMIN.username,
      password: createHash('sha256').update(ADMIN.password).digest('hex'),
    });
    const session = {
      token: login.token,
      username: login.username,
      tokenTime: String(login.tokenTime),
      roleLevel: String(login.roleLevel),
      userId: String(login.userId),
      privateUrl: '',
    };
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-dev-shm-usage',
      ],
    });
    const pages = [
      {
        name: 'console /login',
        url: '/login',
        selector: '[data-testid="login-username"]',
        storage: {},
        budget: CONSOLE_BUDGET,
      },
      {
        name: 'console /home/app',
        url: '/home/app',
        selector: '[data-testid="version-row"]',
        storage: session,
        budget: CONSOLE_BUDGET,
      },
      {
        name: `install /package/<path>`,
        url: `/package/${appPath}`,
        selector: '[data-testid="install-password"]',
        storage: {},
        budget: INSTALL_BUDGET,
      },
    ];
    for (const target of pages) {
      const loads: Load[] = [];
      for (let round = 0; round < ROUNDS; round += 1)
        loads.push(await throttledLoad(browser, server.url, target.url, target.selector, target.storage));
      const js = median(loads.map((l) => l.js));
      const css = median(loads.map((l) => l.css));
      const ms = median(loads.map((l) => l.usableMs));
      const encodings = [...new Set(loads.flatMap((l) => [...l.encodings]))].join('+');
      if (args.includes('--files')) log(`${target.name}, scripts of the first load: ${loads[0]?.scripts.join(', ')}`);
      log(
        `${target.name}: ${loads.map((l) => `${msText(l.usableMs)} (JS ${kb(l.js)}, CSS ${kb(l.css)}, other ${kb(l.other)})`).join('; ')}`,
      );
      // The console's budget is its static rows above (the code a route needs before it renders): what the wire
      // shows until usable also holds the parts a page loads beside itself (its dialogs' and views' chunks, fetched
      // while the data comes) and every response's headers.
      const wireRow = sizeRow(
        `${target.name}: JS fetched until usable (wire, ${encodings})`,
        js,
        target.budget,
        `CSS ${kb(css)}`,
      );
      rows.push(target.budget === CONSOLE_BUDGET ? { ...wireRow, target: 'none (INFO)', pass: null } : wireRow);
      const transferFloor = ((js + css) / FAST_3G.downloadThroughput) * 1000;
      rows.push({
        metric: `${target.name}: first usable paint, Fast 3G`,
        ours: msText(ms),
        reference: `${msText(transferFloor)} to move JS+CSS at 180 KB/s`,
        ratio: '-',
        target: 'none (INFO)',
        pass: null,
      });
    }
  } finally {
    await browser?.close();
    await server?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  printTable(rows, log);
  recordResults('console and install page sizes', rows);
}

await main();
