import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants as zlib } from 'node:zlib';

/** What the install entry shares with the console: zod-free contract bits and its own strings (on its first paint)… */
const installShared =
  /[\\/]src[\\/](features[\\/]packages[\\/]|install-page|errors)|modulepreload-polyfill|preload-helper/;
/** …and what its versions view shares with it (loaded after the password box): formatting, strings, dayjs core. */
const installExtras =
  /[\\/]src[\\/](features[\\/]device-enroll[\\/]device-enroll\.strings|features[\\/]versions[\\/]version-format|app[\\/](loopback-url|clipboard))|node_modules[\\/]dayjs[\\/]dayjs\.min\.js$/;
/**
 * Library chunks, apart from the app's own code. The console's entry takes the libraries its first paint needs
 * (react apart: it changes least); what only lazy pages and dialogs use (antd's Table, DatePicker, Upload, …,
 * qrcode.react) is left to the automatic split, so a page fetches the components it shows and nothing else.
 * Grouping antd by hand pulled whole groups into the first load: one import of a "pages" module from an initial
 * one (Button's style imports Collapse) brought all of them (bench/web-size.ts: 505 KB for /home/app, budget 400).
 */
const vendorGroups = [
  // The install entry (install.html) loads none of the console's chunks. Its first paint is five requests at most, so a
  // phone's six connections fetch them at once (a seventh waited a whole round trip on Fast 3G).
  { name: 'install-vendor', test: /node_modules[\\/]preact[\\/]/, priority: 100 },
  { name: 'install-shared', test: installShared, priority: 100 },
  { name: 'install-extras', test: installExtras, priority: 100 },
  {
    name: 'react',
    test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler|cookie|set-cookie-parser)[\\/]/,
    priority: 50,
  },
  // Other libraries the entry needs.
  { name: 'vendor', test: /node_modules[\\/]/, priority: 10, tags: ['$initial' as const] },
];

/**
 * zod compiles object parsers with `new Function` unless told `jitless`, and its first schema probes for eval:
 * under the Content-Security-Policy (script-src 'self', no 'unsafe-eval') the probe is reported as a violation
 * even though zod catches it. Its global config is read from globalThis when its core module loads, so that
 * module starts by setting it: before any schema of @release/contract exists, whatever the chunk order.
 */
const zodWithoutEval: Plugin = {
  name: 'zod-without-eval',
  transform(code, id) {
    if (!/[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/.test(id)) return null;
    if (!code.includes('__zod_globalConfig'))
      this.error('zod no longer keeps its config in globalThis.__zod_globalConfig: see zodWithoutEval');
    return {
      code: `globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });\n${code}`,
      map: null,
    };
  },
};

export default defineConfig({
  plugins: [
    react(),
    zodWithoutEval,
    // .br and .gz beside every text file of dist (html, js, css, svg, json), at the highest levels: compressed once at
    // build time, served by @fastify/static's preCompressed when the browser accepts them (apps/server/src/http/web-static.ts).
    compression({
      include: /\.(html|js|mjs|css|svg|json|txt)$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      skipIfLargerOrEqual: true,
    }),
  ],
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which files each entry loads (bench/web-size.ts reads it).
    manifest: true,
    // The console's vendor chunk is ~740 kB raw, ~195 kB brotli: its budget is counted compressed (bench/web-size.ts).
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      // The console (index.html) and the testers' install page (install.html, Preact, no antd).
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        install: fileURLToPath(new URL('install.html', import.meta.url)),
      },
      output: {
        codeSplitting: { groups: vendorGroups },
      },
    },
  },
});
