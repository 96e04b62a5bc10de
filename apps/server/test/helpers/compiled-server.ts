import { ensureServerBundle, startMainProcess, type MainProcess } from './main-process.ts';
import type { TestServer } from './test-app.ts';

export { ensureServerBundle };

export type CompiledServer = MainProcess;

/** Runs the compiled server as `npm start` does (`node <serverNodeArgs> apps/server/dist/main.mjs`), with `env` over the test's. */
export function startCompiledServer(env: Record<string, string | undefined>): Promise<CompiledServer> {
  return startMainProcess(env, { compiled: true });
}

/** `request` as TestServer has it, for a server in another process. */
export function apiOf(url: string): Pick<TestServer, 'url' | 'request'> {
  return {
    url,
    async request(method, urlPath, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.token = opts.token;
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(opts.body);
      }
      const response = await fetch(`${url}${urlPath}`, { method, headers, body });
      return { status: response.status, body: JSON.parse(await response.text()) } as never;
    },
  };
}
