import type { Kysely } from 'kysely';
import { messageInfo, type MessageInfo } from '@release/contract';
import { jsonColumn } from '../../db/json-column.ts';
import type { Database, NotificationsTable } from '../../db/schema.ts';

/** Who did what to which app: what a notice shows. */
const messageInfoColumn = jsonColumn('notifications.message_info', messageInfo);

type State = NotificationsTable['state'];

export function createNotificationsRepository(db: Kysely<Database>) {
  return {
    async list(userId: number, query: { state?: State; offset: number; limit: number }) {
      let q = db.selectFrom('notifications').where('user_id', '=', userId);
      if (query.state) q = q.where('state', '=', query.state);
      const [rows, count] = await Promise.all([
        q
          .select(['id', 'app_id as appId', 'create_time as createTime', 'state', 'message_info as messageInfo'])
          .orderBy('create_time', 'desc')
          .orderBy('id', 'desc')
          .offset(query.offset)
          .limit(query.limit)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      ]);
      return {
        rows: rows.map((row) => ({ ...row, messageInfo: messageInfoColumn.decode(row.messageInfo) })),
        total: Number(count?.n ?? 0),
      };
    },
    async insertMany(rows: Array<{ userId: number; appId: number; messageInfo: MessageInfo; now: number }>) {
      if (!rows.length) return;
      await db
        .insertInto('notifications')
        .values(
          rows.map((r) => ({
            user_id: r.userId,
            app_id: r.appId,
            state: 'NOT_READ' as const,
            message_info: messageInfoColumn.encode(r.messageInfo),
            create_time: r.now,
          })),
        )
        .execute();
    },
    async setState(userId: number, filter: { id?: number; appId?: number }, state: State) {
      let q = db.updateTable('notifications').set({ state }).where('user_id', '=', userId);
      if (filter.id !== undefined) q = q.where('id', '=', filter.id);
      if (filter.appId !== undefined) q = q.where('app_id', '=', filter.appId);
      // Reading never resurrects an ignored notice.
      if (state === 'READ') q = q.where('state', '=', 'NOT_READ');
      await q.execute();
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
