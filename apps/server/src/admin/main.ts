import path from 'node:path';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { systemClock } from '../lib/clock.ts';
import { createReadOnlySwitch } from '../modules/settings/read-only.ts';
import { backup } from './backup.ts';
import { blobStoreOf, runMigrate } from './migrate-command.ts';
import { restore } from './restore.ts';
import { rotateKey } from './rotate-key.ts';

/**
 * `npm run admin -- <command>`: operator commands run next to (or instead of) the server, with the server's own
 * configuration (the same environment variables). Later commands (migrate, backup) join the table below.
 */
interface AdminCommand {
  summary: string;
  run(args: string[]): Promise<void>;
}

const log = (line: string) => process.stdout.write(`${line}\n`);

async function withDatabase<T>(
  work: (handle: Awaited<ReturnType<typeof openDatabase>>, config: ReturnType<typeof loadConfig>) => Promise<T>,
  options: { migrate: boolean } = { migrate: true },
): Promise<T> {
  const config = loadConfig();
  const handle = await openDatabase({
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    sqliteFile: path.join(config.DATA_DIR, 'release.db'),
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  try {
    if (options.migrate) await migrateToLatest(handle);
    return await work(handle, config);
  } finally {
    await handle.destroy();
  }
}

function oneDirectory(args: string[], command: string): string {
  const [dir, ...rest] = args;
  if (!dir || rest.length) throw new Error(`usage: npm run admin -- ${command} <dir>`);
  return path.resolve(dir);
}

const commands: Record<string, AdminCommand> = {
  backup: {
    summary:
      'back up the database and the stored files into a new directory while the servers run (the server key is not included); see docs/operations.md',
    run: (args) => {
      const dir = oneDirectory(args, 'backup');
      return withDatabase(
        async (handle, config) => {
          await backup({ source: handle, blobs: blobStoreOf(config), log }, dir);
        },
        { migrate: false },
      );
    },
  },
  migrate: {
    summary:
      'copy this installation to PostgreSQL or SQLite (--to) and/or S3 or local disk (--storage), verified and resumable; --dry-run; see docs/operations.md',
    run: (args) => withDatabase((handle, config) => runMigrate(args, handle, config, log), { migrate: false }),
  },
  'read-only': {
    summary: 'on | off: refuse (or allow again) changes on every server of this installation; migrate turns it on',
    run: ([state, ...rest]) => {
      if ((state !== 'on' && state !== 'off') || rest.length)
        throw new Error('usage: npm run admin -- read-only on|off');
      return withDatabase(
        async (handle) => {
          const mode = createReadOnlySwitch(handle.db);
          if (state === 'on') await mode.turnOn(Date.now());
          else await mode.turnOff();
          log(`read-only mode ${state}`);
        },
        { migrate: false },
      );
    },
  },
  restore: {
    summary:
      'restore a backup into this (empty) installation: DATA_DIR or DATABASE_URL, and STORAGE; checks every checksum first',
    run: (args) => {
      const dir = oneDirectory(args, 'restore');
      return withDatabase(
        async (handle, config) => {
          await restore({ target: handle, blobs: blobStoreOf(config), log }, dir);
        },
        { migrate: false },
      );
    },
  },
  'rotate-key': {
    summary:
      'encrypt every stored secret with a new server key (stop the servers first when the key is in DATA_DIR/secret.key); see docs/operations.md',
    run: () =>
      withDatabase(async (handle, config) => {
        await rotateKey({ db: handle.db, config, clock: systemClock, log });
      }),
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  return [
    'usage: npm run admin -- <command>',
    '',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

async function main(argv: string[]) {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    log(usage());
    return;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`unknown command: ${name}\n\n${usage()}\n`);
    process.exitCode = 2;
    return;
  }
  await command.run(args);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
