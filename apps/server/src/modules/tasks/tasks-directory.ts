import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createTasksRepository } from './tasks.repository.ts';

/**
 * What the Lark task sync may write of tasks (a record pulled from Lark, a change to one, each with its history), and
 * an app's task settings (the install page asks whether 反馈问题 is open): built by tasks, so no other module holds
 * its repository.
 */
export function createTasksDirectory(db: Kysely<Database>) {
  const tasks = createTasksRepository(db);
  return { insert: tasks.insert, update: tasks.update, settings: tasks.settings };
}
export type TasksDirectory = ReturnType<typeof createTasksDirectory>;
