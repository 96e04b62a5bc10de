import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two files at a time: vitest's default on a 2-core machine is one (cores - 1), but most of a server or
    // browser test is waiting for a database, a child process or Chromium, so the second core idles. The
    // browser project still runs its files one after another (fileParallelism: false below).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.ts', 'tools/fakes/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['conformance/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // Fails any scenario whose pages broke the Content-Security-Policy.
          setupFiles: ['e2e/helpers/csp-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // A page waits for what the user would see; 1 s (the default) is too short on a loaded machine.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
