import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dropPostgresSchema } from '../../apps/server/src/db/database.ts';
import { startMainProcess, type MainProcess } from '../../apps/server/test/helpers/main-process.ts';
import { freePort, startNginx, type Nginx } from '../../e2e/helpers/nginx.ts';
import { ADMIN } from '../lib/server.ts';
import { POSTGRES_URL } from './generate.ts';

/**
 * The deployment docs/deployment.md describes, on one machine: PROCESSES server processes (the compiled bundle, as
 * `npm start` runs it) on one PostgreSQL schema and one SECRET_KEY, their blob stores one shared directory (each
 * DATA_DIR/blobs links to it, as an NFS mount would be), behind Debian's nginx running docs/deploy/nginx.conf.
 */

export const PROCESSES = 4;

export interface Site {
  /** https://release.test:<port>: what PUBLIC_URL names. */
  url: string;
  certificate: string;
  sharedBlobs: string;
  servers: MainProcess[];
  stop(): Promise<void>;
}

export async function startSite(workDir: string, log: (line: string) => void): Promise<Site> {
  const schema = `scale_cluster_${randomBytes(4).toString('hex')}`;
  const sharedBlobs = path.join(workDir, 'shared-blobs');
  fs.mkdirSync(sharedBlobs, { recursive: true });
  const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
  let nginx: Nginx | undefined;
  const servers: MainProcess[] = [];
  const stop = async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
    await nginx?.stop().catch(() => undefined);
    await dropPostgresSchema(POSTGRES_URL, schema).catch(() => undefined);
  };
  try {
    // nginx first: the servers must know the public address their links name.
    nginx = await startNginx(
      ports.map((port) => `127.0.0.1:${port}`),
      { workerProcesses: 2, workerConnections: 4096 },
    );
    const env = {
      DATABASE_URL: POSTGRES_URL,
      DATABASE_SCHEMA: schema,
      SECRET_KEY: randomBytes(32).toString('hex'),
      PUBLIC_URL: nginx.httpsUrl,
      TRUST_PROXY: '127.0.0.1',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    };
    // Started together, as a deployment does: migrations, roles and the first admin must not collide.
    const started = await Promise.all(
      ports.map((port, n) => {
        const dataDir = path.join(workDir, `server-${n + 1}`);
        fs.mkdirSync(dataDir, { recursive: true });
        fs.symlinkSync(sharedBlobs, path.join(dataDir, 'blobs'));
        return startMainProcess({ ...env, DATA_DIR: dataDir, PORT: String(port) }, { compiled: true });
      }),
    );
    servers.push(...started);
    log(`  ${PROCESSES} server processes on ports ${ports.join(', ')} behind nginx at ${nginx.httpsUrl}`);
    return { url: nginx.httpsUrl, certificate: nginx.certificate, sharedBlobs, servers, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
