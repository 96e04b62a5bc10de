import path from 'node:path';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { systemClock } from '../lib/clock.ts';
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
): Promise<T> {
  const config = loadConfig();
  const handle = await openDatabase({
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    sqliteFile: path.join(config.DATA_DIR, 'release.db'),
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  try {
    await migrateToLatest(handle);
    return await work(handle, config);
  } finally {
    await handle.destroy();
  }
}

const commands: Record<string, AdminCommand> = {
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
