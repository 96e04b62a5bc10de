import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { type Config, loadConfig } from '../config.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { systemClock } from '../lib/clock.ts';
import { createBlobStore } from '../storage/create-blob-store.ts';
import { createUrlSigner } from '../storage/url-signer.ts';
import { migrate } from './migrate.ts';

export const MIGRATE_USAGE = [
  'usage: npm run admin -- migrate [--to <postgres://… | data dir>] [--schema <name>] [--storage <s3 | data dir>] [--dry-run]',
  '  copies this installation (DATA_DIR / DATABASE_URL, STORAGE) to another database and/or file store;',
  '  --storage s3 takes the bucket from TO_S3_BUCKET, TO_S3_ENDPOINT, TO_S3_REGION, TO_S3_ACCESS_KEY_ID,',
  '  TO_S3_SECRET_ACCESS_KEY, TO_S3_FORCE_PATH_STYLE; see docs/operations.md',
].join('\n');

/** The configured blob store, for copying files only (it signs no link: the server key is not needed). */
export const blobStoreOf = (config: Config) =>
  createBlobStore(config, { signer: createUrlSigner(randomBytes(32).toString('hex')), clock: systemClock });

function parse(args: string[]) {
  const options: { to?: string; schema?: string; storage?: string; dryRun: boolean } = { dryRun: false };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const value = () => {
      const next = args[i + 1];
      if (!next || next.startsWith('--')) throw new Error(`${arg} needs a value\n\n${MIGRATE_USAGE}`);
      i += 1;
      return next;
    };
    if (arg === '--to') options.to = value();
    else if (arg === '--schema') options.schema = value();
    else if (arg === '--storage') options.storage = value();
    else if (arg === '--dry-run') options.dryRun = true;
    else throw new Error(`unknown option ${arg}\n\n${MIGRATE_USAGE}`);
  }
  if (!options.to && !options.storage) throw new Error(`say where to: --to and/or --storage\n\n${MIGRATE_USAGE}`);
  return options;
}

/** The file store `--storage` names: S3 from the TO_S3_* variables, or local disk under a data dir. */
function targetStore(storage: string, env: NodeJS.ProcessEnv) {
  if (storage !== 's3') return blobStoreOf(loadConfig({ STORAGE: 'local', DATA_DIR: path.resolve(storage) }));
  const config = loadConfig({
    STORAGE: 's3',
    S3_BUCKET: env.TO_S3_BUCKET,
    S3_ENDPOINT: env.TO_S3_ENDPOINT,
    S3_REGION: env.TO_S3_REGION,
    S3_ACCESS_KEY_ID: env.TO_S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: env.TO_S3_SECRET_ACCESS_KEY,
    S3_FORCE_PATH_STYLE: env.TO_S3_FORCE_PATH_STYLE,
  });
  return blobStoreOf(config);
}

/** `admin migrate …` with the source from the environment (as the server reads it) and the target from the options. */
export async function runMigrate(
  args: string[],
  source: DatabaseHandle,
  config: Config,
  log: (line: string) => void,
): Promise<void> {
  const options = parse(args);
  let target: DatabaseHandle | undefined;
  if (options.to) {
    const isPostgres = options.to.startsWith('postgres://') || options.to.startsWith('postgresql://');
    target = await openDatabase({
      url: isPostgres ? options.to : undefined,
      schema: options.schema ?? 'public',
      sqliteFile: path.join(path.resolve(options.to), 'release.db'),
      statementTimeoutMs: 0,
    });
  }
  try {
    await migrate({
      source,
      sourceBlobs: blobStoreOf(config),
      target,
      targetBlobs: options.storage ? targetStore(options.storage, process.env) : undefined,
      dryRun: options.dryRun,
      log,
    });
  } finally {
    await target?.destroy();
  }
}
