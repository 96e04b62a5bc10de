import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  dropPostgresSchema,
  migrateToLatest,
  migrateUpTo,
  openDatabase,
  type DatabaseHandle,
} from '../src/db/database.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';

// Install page registrations made before the admin's review said 待管理员确认 in their remark; after the upgrade the
// 状态 column says 待确认 and the remark only where the device came from.
describe.each(testDialects())('old device remarks on %s', (dialect) => {
  let handle: DatabaseHandle | null = null;
  afterEach(async () => {
    await handle?.destroy().catch(() => undefined);
    if (handle?.dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, handle.schema!);
    handle = null;
  });

  it('drops the ，待管理员确认 suffix and keeps the device pending; other remarks stay as they are', async () => {
    handle = await openDatabase({
      url: dialect === 'postgres' ? TEST_POSTGRES_URL : undefined,
      schema: `t_${randomBytes(6).toString('hex')}`,
      sqliteFile: ':memory:',
    });
    await migrateUpTo(handle, '2026-11-23-020-tasks-lark-deleted');
    const device = (udid: string, remark: string) => ({
      udid,
      device_name: `iPhone ${udid.slice(-1)}`,
      platform: 'ios',
      model: null,
      remark,
      user_id: null,
      create_by: null,
      create_time: 1,
      update_time: 1,
    });
    await handle.db
      .insertInto('devices')
      .values([
        device('00008030-000000000000000A', '安装页自助注册（测试应用），待管理员确认'),
        device('00008030-000000000000000B', '安装页自助注册，待管理员确认'),
        device('00008030-000000000000000C', '自助注册'),
        device('00008030-000000000000000D', '测试机，待管理员确认后再用'),
      ] as never)
      .execute();

    await migrateToLatest(handle);
    const rows = await handle.db
      .selectFrom('devices')
      .select(['udid', 'remark', 'review_status'])
      .orderBy('udid')
      .execute();
    expect(rows.map((r) => [r.remark, r.review_status])).toEqual([
      ['安装页自助注册（测试应用）', 'pending'],
      ['安装页自助注册', 'pending'],
      ['自助注册', 'confirmed'],
      ['测试机，待管理员确认后再用', 'confirmed'],
    ]);
  });
});
