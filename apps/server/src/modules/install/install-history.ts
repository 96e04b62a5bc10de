import type { Kysely } from 'kysely';
import type { NativePackageType } from '@release/contract';
import type { Database } from '../../db/schema.ts';

/** Who is looking at the install page: the signed-in user, and the page's device id (its cookie). */
export interface InstallVisitor {
  userId: number | null;
  device: string | null;
}

/**
 * What a visitor last took of an app, read from install_events (written by the install statistics: a row's
 * device_key is `u<user id>` for a signed-in user, `d<device id>` for the page's device, user_id the signed-in user).
 */
export function createInstallHistory(db: Kysely<Database>) {
  return {
    /** The build of this platform the visitor downloaded or installed last (by the time of it), or null. */
    async lastTaken(appId: number, platform: NativePackageType, who: InstallVisitor): Promise<number | null> {
      if (!who.userId && !who.device) return null;
      const row = await db
        .selectFrom('install_events as e')
        .innerJoin('app_versions as v', 'v.id', 'e.version_id')
        .select('e.version_id')
        .where('e.app_id', '=', appId)
        .where('v.native_package_type', '=', platform)
        .where((eb) =>
          eb.or([
            ...(who.userId ? [eb('e.user_id', '=', who.userId), eb('e.device_key', '=', `u${who.userId}`)] : []),
            ...(who.device ? [eb('e.device_key', '=', `d${who.device}`)] : []),
          ]),
        )
        .orderBy('e.create_time', 'desc')
        .orderBy('e.id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? Number(row.version_id) : null;
    },
  };
}
export type InstallHistory = ReturnType<typeof createInstallHistory>;
