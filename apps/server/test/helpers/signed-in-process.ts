import { sha256Hex } from '../../src/lib/crypto.ts';
import { startMainProcess, type MainProcess } from './main-process.ts';

const ADMIN = { username: 'admin', password: 'admin-process-pass' };

/** The real server process with its first admin, signed in: `token` is that admin's session. */
export interface SignedInProcess extends MainProcess {
  token: string;
}

export async function startSignedInProcess(
  env: Record<string, string | undefined> & { DATA_DIR: string },
): Promise<SignedInProcess> {
  const server = await startMainProcess(
    { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, ...env },
    { compiled: true },
  );
  const res = await fetch(`${server.url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN.username, password: sha256Hex(ADMIN.password) }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { token: string } };
  if (body.code !== 200) {
    await server.stop();
    throw new Error(`signing in to the started server failed: ${body.msg}`);
  }
  return { ...server, token: body.data.token };
}
