import path from 'node:path';
import type { Clock } from '../../lib/clock.ts';
import { createSecretBox } from '../../lib/secret-box.ts';
import { generateKey, keyFilePath, readKeyFile, writeKeyFile } from './key-file.ts';
import { SEALED_COLUMNS, type SealedValuesRepository } from './sealed-values.repository.ts';
import type { SettingsRepository } from './settings.repository.ts';

/** Where versions before the key file kept the generated key, in plain text next to what it protects. */
export const LEGACY_KEY_SETTING = 'server.secret';

export interface ServerKeys {
  /** Seals new values and signs links. */
  current: string;
  /** Still open values sealed with them (a rotation under way). */
  previous: string[];
  source: 'env' | 'file';
}

export interface KeySettings {
  SECRET_KEY?: string;
  SECRET_KEY_PREVIOUS?: string;
  DATA_DIR: string;
  DATABASE_URL?: string;
}

/** The server cannot start with the key setup it has; the message says what to do. */
export class KeySetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeySetupError';
  }
}

const SAMPLE_PER_COLUMN = 20;

/** How many of the newest stored secrets the keys open, and how many they do not. */
async function probe(sealed: SealedValuesRepository, keys: ServerKeys): Promise<{ opened: number; refused: number }> {
  const box = createSecretBox(keys.current, keys.previous);
  let opened = 0;
  let refused = 0;
  for (const target of SEALED_COLUMNS) {
    for (const value of await sealed.newest(target, SAMPLE_PER_COLUMN)) {
      try {
        box.open(value);
        opened += 1;
      } catch {
        refused += 1;
      }
    }
  }
  return { opened, refused };
}

/** Values that `extra` opens and `keys` do not: what would be lost if `extra` were thrown away. */
async function onlyOpenedBy(sealed: SealedValuesRepository, keys: ServerKeys, extra: string): Promise<number> {
  const box = createSecretBox(keys.current, keys.previous);
  const other = createSecretBox(extra);
  let count = 0;
  for (const target of SEALED_COLUMNS) {
    for (let after = 0; ; ) {
      const rows = await sealed.page(target, after, 500);
      if (!rows.length) break;
      for (const row of rows) {
        let ours = true;
        try {
          box.open(row.value);
        } catch {
          ours = false;
        }
        if (ours) continue;
        try {
          other.open(row.value);
          count += 1;
        } catch {
          // Opened by neither: nothing to keep the extra key for.
        }
      }
      after = rows[rows.length - 1]?.id ?? after;
    }
  }
  return count;
}

function fromFile(file: string, log: (line: string) => void): ServerKeys | null {
  const read = readKeyFile(file);
  if (!read) return null;
  if (read.tooOpen) log(`warning: ${file} can be read by other users of this machine; run: chmod 600 ${file}`);
  const [current = '', ...previous] = read.keys;
  return { current, previous, source: 'file' };
}

function noKeyMessage(file: string): string {
  return [
    'No server key: SECRET_KEY is not set and there is no key file.',
    `With DATABASE_URL several server processes may share the database, so the key is not generated here: set SECRET_KEY to the same`,
    'random string of at least 32 characters on every process (for example the output of `openssl rand -base64 48`),',
    `or put that key in ${file} (mode 0600). If another process moved an older key out of the database, use that one (its DATA_DIR/secret.key).`,
  ].join('\n');
}

/**
 * The server key at start-up. SECRET_KEY (with SECRET_KEY_PREVIOUS during a rotation) when set; else DATA_DIR/secret.key,
 * generated on first start of a single-machine (SQLite) server. A key older versions kept in the database is moved to the
 * key file and removed from the database; a database holding secrets that the key does not open stops the start.
 */
export async function resolveServerKeys(deps: {
  config: KeySettings;
  settings: SettingsRepository;
  sealed: SealedValuesRepository;
  clock: Clock;
  log: (line: string) => void;
}): Promise<ServerKeys> {
  const { config, settings, sealed, log } = deps;
  const file = keyFilePath(config.DATA_DIR);
  const stored = await settings.get(LEGACY_KEY_SETTING);

  let keys: ServerKeys | null = config.SECRET_KEY
    ? {
        current: config.SECRET_KEY,
        previous: config.SECRET_KEY_PREVIOUS ? [config.SECRET_KEY_PREVIOUS] : [],
        source: 'env',
      }
    : fromFile(file, log);
  if (!keys && stored) {
    // The older versions' generated key: to the key file (0600) first, then out of the database.
    if (writeKeyFile(file, [stored], { exclusive: true })) {
      log(`moved the server key out of the database into ${file}; back this file up (see docs/operations.md)`);
      if (config.DATABASE_URL)
        log(
          `every other server process sharing this database needs the same key: copy ${file} to its DATA_DIR, or set SECRET_KEY`,
        );
    }
    keys = fromFile(file, log);
  }
  if (!keys) {
    if (config.DATABASE_URL) throw new KeySetupError(noKeyMessage(file));
    const { opened, refused } = await probe(sealed, { current: generateKey(), previous: [], source: 'file' });
    if (opened + refused > 0) {
      throw new KeySetupError(
        `The database holds encrypted secrets but ${file} is missing and SECRET_KEY is not set: restore the key file from the backup it was saved with (see docs/operations.md).`,
      );
    }
    writeKeyFile(file, [generateKey()], { exclusive: true });
    keys = fromFile(file, log);
    if (!keys) throw new KeySetupError(`could not create ${file}`);
  }

  if (stored !== undefined) {
    if (stored !== keys.current && !keys.previous.includes(stored)) {
      const lost = await onlyOpenedBy(sealed, keys, stored);
      if (lost > 0) {
        // Kept out of the database, where it could be put back as SECRET_KEY_PREVIOUS for a rotation to recover them.
        const kept = path.join(config.DATA_DIR, `secret.key.retired-${deps.clock.now()}`);
        writeKeyFile(kept, [stored], { exclusive: true });
        log(
          `warning: the database held an older key that opens ${lost} stored secret(s) the current key does not; it was moved to ${kept} (see docs/operations.md, "An old key")`,
        );
      }
    }
    await settings.deleteScrubbed(LEGACY_KEY_SETTING);
  }

  const { opened, refused } = await probe(sealed, keys);
  const where = keys.source === 'env' ? 'SECRET_KEY' : file;
  if (refused > 0 && opened === 0) {
    throw new KeySetupError(
      `The key in ${where} does not open the secrets stored in the database: it is not the key they were encrypted with. Use the key this database was set up with (SECRET_KEY on every process, or DATA_DIR/secret.key).`,
    );
  }
  if (refused > 0) log(`warning: ${refused} of the newest stored secrets cannot be decrypted with the key in ${where}`);
  return keys;
}
