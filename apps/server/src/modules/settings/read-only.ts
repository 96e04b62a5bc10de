import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { createSettingsRepository } from './settings.repository.ts';

/**
 * Read-only mode, set by `admin migrate` on the installation it copies from: every server process sharing the
 * database refuses changes (what they would write after the copy began would not reach the new installation), and
 * pages keep working. `npm run admin -- read-only off` ends it.
 */
export const READ_ONLY_SETTING = 'maintenance.read_only';
export const ReadOnlyMessages = { refused: '系统正在迁移数据，暂时只读，请稍后再试' } as const;

/** Writes that go on in read-only mode: signing in and out (people can still look), nothing that changes data. */
const ALLOWED = new Set(['/api/user/login', '/api/user/logout', '/api/send_phone_code']);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function createReadOnlySwitch(db: Kysely<Database>) {
  const settings = createSettingsRepository(db);
  return {
    /** Since when (epoch ms), or null when changes are allowed. */
    async since(): Promise<number | null> {
      const value = await settings.get(READ_ONLY_SETTING);
      return value ? Number(value) : null;
    },
    async turnOn(now: number): Promise<void> {
      await settings.set(READ_ONLY_SETTING, String(now), now);
    },
    async turnOff(): Promise<void> {
      await db.deleteFrom('settings').where('key', '=', READ_ONLY_SETTING).execute();
    },
  };
}

/** Refuses every request that could change data while read-only mode is on (one primary-key read per such request). */
export function registerReadOnlyGuard(app: FastifyInstance, db: Kysely<Database>): void {
  const mode = createReadOnlySwitch(db);
  app.addHook('onRequest', async (request) => {
    if (READS.has(request.method)) return;
    if (ALLOWED.has(request.url.split('?')[0] ?? '')) return;
    if ((await mode.since()) !== null) throw new AppError('unavailable', ReadOnlyMessages.refused);
  });
}
