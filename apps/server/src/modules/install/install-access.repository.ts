import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The columns of an app that decide who opens its install page: the sealed password and the password-free link. */
export function createInstallAccessRepository(db: Kysely<Database>) {
  return {
    async findByPublicPath(publicPath: string) {
      return db.selectFrom('apps').selectAll().where('public_path', '=', publicPath).executeTakeFirst();
    },
    async update(appId: number, changes: { password?: string; public_install?: number }) {
      if (changes.password === undefined && changes.public_install === undefined) return;
      await db.updateTable('apps').set(changes).where('id', '=', appId).execute();
    },
  };
}
export type InstallAccessRepository = ReturnType<typeof createInstallAccessRepository>;
