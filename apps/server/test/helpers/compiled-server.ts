import { ensureServerBundle, startMainProcess, type MainProcess } from './main-process.ts';
import { requestAt, type TestServer } from './test-app.ts';

export { ensureServerBundle };

export type CompiledServer = MainProcess;

/** Runs the compiled server as `npm start` does (`node <serverNodeArgs> apps/server/dist/main.mjs`), with `env` over the test's. */
export function startCompiledServer(env: Record<string, string | undefined>): Promise<CompiledServer> {
  return startMainProcess(env, { compiled: true });
}

/** `request` as TestServer has it, for a server in another process. */
export function apiOf(url: string): Pick<TestServer, 'url' | 'request'> {
  return { url, request: requestAt(url) };
}
