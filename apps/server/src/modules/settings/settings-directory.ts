import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createSettingsRepository } from './settings.repository.ts';

/** Stored settings by key, for the modules that keep one there (retention's default rule): built by settings. */
export function createSettingsDirectory(db: Kysely<Database>) {
  const settings = createSettingsRepository(db);
  return { get: settings.get, set: settings.set };
}
export type SettingsDirectory = ReturnType<typeof createSettingsDirectory>;
