import type { DialectName } from '../../src/db/database.ts';
import { testStore } from './s3-server.ts';
import { startTestServer, type TestServer } from './test-app.ts';

export interface HarmonyShop {
  server: TestServer;
  admin: string;
  editor: { userId: number; token: string };
  appId: number;
  /** Stops the server, then the store. */
  close(): Promise<void>;
}

/**
 * What the HarmonyOS API tests start from: a server on `store` (local disk, or S3 on a fresh s3rver), behind
 * `publicUrl` when given, and the app 鸿蒙商城 (install password 135790, short link `path`) that `editor` may edit.
 */
export async function startHarmonyShop(
  dialect: DialectName,
  options: { path: string; store?: 'local' | 's3'; publicUrl?: string },
): Promise<HarmonyShop> {
  const storage = await testStore(options.store ?? 'local');
  const server = await startTestServer(dialect, { blobs: storage.blobs, publicUrl: options.publicUrl });
  const admin = await server.adminToken();
  const editor = await server.createUser({ username: 'editor', roleLevel: 30 });
  const appId = await server.createApp({ appName: '鸿蒙商城', path: options.path, edit: [editor] });
  return {
    server,
    admin,
    editor,
    appId,
    async close() {
      await server.close();
      await storage.close();
    },
  };
}
