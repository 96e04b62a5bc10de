import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, sql } from '../src/db/database.ts';
import { countRows, generateStudio } from '../../../bench/lib-scale/generate.ts';
import { FULL_SIZE, fraction } from '../../../bench/lib-scale/size.ts';
import { testDialects } from './helpers/dialects.ts';

// The generator of bench/scale.ts at 1/10,000 of the large studio: the rows it promises, on the product's schema.
describe.each(testDialects())('scale bench generator on %s', (dialect) => {
  it('makes exactly the rows of its size, members, versions and items tied to their apps', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scale-gen-'));
    const size = { ...fraction(FULL_SIZE, 10_000), apps: 2, users: 3 };
    const studio = await generateStudio(dialect, size, dir, 'smoke', () => undefined);
    const handle = await openDatabase({
      url: studio.env.DATABASE_URL,
      schema: studio.env.DATABASE_SCHEMA,
      sqliteFile: path.join(studio.dataDir, 'release.db'),
    });
    try {
      expect(await countRows(handle, size)).toEqual({
        users: 4,
        apps: 2,
        app_users: 6,
        workflows: 8,
        app_versions: 20,
        commit_logs: 2_000,
      });
      // user1 is a member of both apps (edit on the first); each app has half the versions, each workflow 1/8 of the items.
      const member = await handle.db
        .selectFrom('app_users as p')
        .innerJoin('users as u', 'u.id', 'p.user_id')
        .select(['p.app_id', 'p.permit'])
        .where('u.username', '=', 'user1')
        .orderBy('p.app_id')
        .execute();
      expect(member.map((m) => [Number(m.app_id), m.permit])).toEqual([
        [1, 'edit'],
        [2, 'view'],
      ]);
      const perApp = await sql<{ app_id: number; n: number }>`
        select app_id, count(*) as n from app_versions group by app_id order by app_id`.execute(handle.db);
      expect(perApp.rows.map((r) => Number(r.n))).toEqual([10, 10]);
      const items = await sql<{
        n: number;
      }>`select count(*) as n from commit_logs where workflow_id = 1 and app_id = 1`.execute(handle.db);
      expect(Number(items.rows[0]?.n)).toBe(250);
      // The indexes dropped for the load are all back.
      const indexes =
        dialect === 'sqlite'
          ? await sql<{
              name: string;
            }>`select name from sqlite_master where type = 'index' and tbl_name = 'commit_logs' and sql is not null`.execute(
              handle.db,
            )
          : await sql<{
              name: string;
            }>`select indexname as name from pg_indexes where schemaname = ${studio.env.DATABASE_SCHEMA} and tablename = 'commit_logs'`.execute(
              handle.db,
            );
      expect(indexes.rows.map((r) => r.name)).toEqual(
        expect.arrayContaining(['commit_logs_workflow_commit_uq', 'commit_logs_workflow_shown_idx']),
      );
    } finally {
      await handle.destroy();
      await studio.remove();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
