import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { generateKey, keyFilePath, writeKeyFile } from '../modules/settings/key-file.ts';
import { resealAll, type ResealReport } from '../modules/settings/key-rotation.ts';
import {
  createSealedValuesRepository,
  type SealedValuesRepository,
} from '../modules/settings/sealed-values.repository.ts';
import { createSettingsRepository } from '../modules/settings/settings.repository.ts';
import { KeySetupError, resolveServerKeys, type KeySettings } from '../modules/settings/server-key.ts';

export interface RotateKeyDeps {
  db: Kysely<Database>;
  config: KeySettings;
  clock: Clock;
  log: (line: string) => void;
  /** Tests replace the repository to stop a rotation half-way, as a crash would. */
  sealed?: SealedValuesRepository;
}

function describe(report: ResealReport): string {
  const unreadable = report.unreadable.length
    ? `; ${report.unreadable.length} could not be read with any key (they were unreadable before): ${report.unreadable.map((u) => `${u.table}.${u.column} id ${u.id}`).join(', ')}`
    : '';
  return `${report.resealed} secret(s) encrypted with the new key, ${report.current} already were${unreadable}`;
}

/**
 * `admin rotate-key`: every stored secret is encrypted again with a new key and links signed with the old key stop
 * working. With the key file the new key is written next to the old one first, so a crash at any point leaves every
 * secret readable and running the command again finishes the rotation; the old key leaves the file last.
 * With SECRET_KEY the operator supplies both keys (SECRET_KEY new, SECRET_KEY_PREVIOUS old).
 */
export async function rotateKey(deps: RotateKeyDeps): Promise<ResealReport> {
  const { db, config, log } = deps;
  const sealed = deps.sealed ?? createSealedValuesRepository(db);
  const keys = await resolveServerKeys({
    config,
    settings: createSettingsRepository(db),
    sealed: createSealedValuesRepository(db),
    clock: deps.clock,
    log,
  });

  if (keys.source === 'env') {
    if (!keys.previous.length) {
      throw new KeySetupError(
        [
          'SECRET_KEY is set, so the new key must come from the environment too:',
          '  1. on every server process set SECRET_KEY to a new random key (e.g. `openssl rand -base64 48`) and SECRET_KEY_PREVIOUS to the old one, and restart them;',
          '  2. run this command with the same two variables;',
          '  3. remove SECRET_KEY_PREVIOUS everywhere and restart.',
        ].join('\n'),
      );
    }
    const report = await resealAll({ sealed, current: keys.current, previous: keys.previous });
    log(describe(report));
    await verify(sealed, keys.current, keys.previous);
    log(
      'done: remove SECRET_KEY_PREVIOUS from every server process and restart them; links signed with the old key no longer work',
    );
    return report;
  }

  const file = keyFilePath(config.DATA_DIR);
  let current = keys.current;
  let previous = keys.previous;
  if (previous.length) {
    log(`resuming the rotation recorded in ${file}`);
  } else {
    current = generateKey();
    previous = [keys.current];
    // Both keys in the file before the first value changes: whatever happens next, everything stays readable.
    writeKeyFile(file, [current, ...previous], { exclusive: false });
    log(`new key written to ${file} (the old key stays there until every secret is moved)`);
  }
  const report = await resealAll({ sealed, current, previous });
  log(describe(report));
  await verify(sealed, current, previous);
  writeKeyFile(file, [current], { exclusive: false });
  log(
    `done: ${file} holds only the new key; back it up again. Start the server; links signed with the old key no longer work`,
  );
  return report;
}

/** A last pass must find nothing left under an old key (an edit during the rotation was moved by a later pass). */
async function verify(sealed: SealedValuesRepository, current: string, previous: string[]) {
  const check = await resealAll({ sealed, current, previous });
  if (check.resealed > 0)
    throw new Error(
      'stored secrets kept changing during the rotation: stop every server process and run the command again',
    );
}
