import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMainProcess } from '../../apps/server/test/helpers/main-process.ts';

export const E2E_ADMIN = { username: 'admin', password: 'admin-e2e-pass' };

export interface ServerProcess {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the real server as `npm start` would (built web app, SQLite under a fresh DATA_DIR). */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-e2e-'));
  const server = await startMainProcess({ DATA_DIR: dataDir, ADMIN_USERNAME: E2E_ADMIN.username, ADMIN_PASSWORD: E2E_ADMIN.password, ...env });
  return {
    url: server.url,
    dataDir,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
