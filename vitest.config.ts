import { defineConfig } from 'vitest/config';

/**
 * Server files that assert what this process has loaded (require.cache): they need a process of their own. The
 * other server files share their worker's modules (isolate: false), as they share nothing else.
 */
const SEPARATE_PROCESS = ['apps/server/test/lark-sdk-lazy.test.ts'];
/** Browser-suite files about the process itself (what `npm start` prints, its signals) run in a worker of their own. */
const E2E_SEPARATE_PROCESS = ['e2e/npm-start.test.ts'];

const browserTest = {
  // Fails any scenario whose pages broke the Content-Security-Policy.
  setupFiles: ['e2e/helpers/csp-setup.ts'],
  environment: 'node',
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // A page waits for what the user would see; 1 s (the default) is too short on a loaded machine.
  expect: { poll: { timeout: 15_000 } },
};

export default defineConfig({
  test: {
    // Two files at a time, of any project: vitest's default on a 2-core machine is one (cores - 1), but most of
    // a server or browser test is waiting for a database, a child process or Chromium, so the second core idles.
    // Browser files share the pool with the others (each has its own server, data dir, schema and Chromium):
    // run one after another in a group of their own, they were 8 of the suite's 13 minutes.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          isolate: false,
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
            'tools/fakes/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
          // A hang guard, not a speed check: the parser limit tests read 50,000-entry archives and million-item
          // documents, which take several seconds on a loaded 2-core machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          exclude: SEPARATE_PROCESS,
          environment: 'node',
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-alone',
          include: SEPARATE_PROCESS,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'conformance',
          isolate: false,
          include: ['conformance/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          // Files of a worker share their modules and one Chromium (e2e/helpers/browser.ts).
          isolate: false,
          include: ['e2e/**/*.test.ts'],
          exclude: E2E_SEPARATE_PROCESS,
          ...browserTest,
        },
      },
      {
        test: { name: 'e2e-alone', include: E2E_SEPARATE_PROCESS, ...browserTest },
      },
    ],
  },
});
