import { buildDataset } from './setup.ts';
import { serviceOn } from './cases.ts';
import { captureQueries, explain } from './measure.ts';
import { proposedList } from './proposed-list.ts';
const dialect = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres';
const db = await buildDataset(dialect, '/tmp/exp', 20_000, () => undefined);
try {
  const cap = captureQueries(db.handle.db);
  const svc = serviceOn(cap.db, (repo, d) => ({ ...repo, list: proposedList(d) }));
  const ids = db.layout.workflowIds.slice(0, 10).join(',');
  const page = await svc.list(db.viewer, { workflowIds: ids, onlyCliff: true, pageNo: 1, pageSize: 30 }, db.presenter);
  await svc.list(db.viewer, { workflowIds: ids, onlyCliff: true, pageNo: 1, pageSize: 30, cursor: page.nextCursor ?? undefined }, db.presenter);
  for (const q of cap.take().filter((q) => q.sql.includes('"c"'))) { const v = await explain(db.handle.db, dialect, q); console.log(v.kind, v.summary); console.log(v.lines.join('\n')); }
} finally { await db.close(); }
