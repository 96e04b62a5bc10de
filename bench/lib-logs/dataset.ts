import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CommitLogsTable, Database, Insertable } from '../../apps/server/src/db/schema.ts';

/**
 * The generated update items: one app, WORKFLOWS git workflows, COMMITTERS committers, SPAN_DAYS of history.
 * Workflows and committers are Zipf-distributed (a few busy repositories and prolific people, a long quiet tail),
 * so the same layout at 1,000 rows still gives the busiest workflow and committer full 30-item pages.
 */
export const WORKFLOWS = 200;
export const COMMITTERS = 300;
export const SPAN_DAYS = 730;
export const DAY = 86_400_000;
/** The history ends here (UTC, a month boundary, so the calendar months are whole). */
export const END_TIME = Date.UTC(2026, 10, 1);
export const START_TIME = END_TIME - SPAN_DAYS * DAY;
/** Every tenth workflow has a committer filter: commits of anyone else are stored with is_filtered = 1. */
export const FILTERED_WORKFLOW = (rank: number) => rank % 10 === 5;
export const FILTER_SIZE = 5;

/** Deterministic PRNG (mulberry32), so both databases and every run get the same rows. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cumulative weights of a Zipf distribution over 1..n; `pick` maps a uniform number to a 0-based rank. */
function zipf(n: number, s: number): (u: number) => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (let k = 1; k <= n; k += 1) {
    sum += k ** -s;
    cumulative.push(sum);
  }
  return (u) => {
    const target = u * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴', '徐', '孙', '胡', '朱', '高'];
const GIVEN = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '磊',
  '洋',
  '艳',
  '勇',
  '军',
  '杰',
  '涛',
  '明',
  '超',
  '霞',
  '平',
  '刚',
  '桂英',
  '晨',
  '宇',
];
const LATIN = ['alex', 'maria', 'jonas', 'li.wei', 'sam', 'olga', 'kenji', 'priya', 'tom', 'nina'];

export interface Committer {
  name: string;
  email: string;
}

/** A few hundred committers: Chinese names, some Latin logins. */
export function committers(): Committer[] {
  return Array.from({ length: COMMITTERS }, (_, i) => {
    // 15 surnames x 20 given names: 300 distinct Chinese names; every seventh person uses a Latin login.
    const name =
      i % 7 === 3
        ? `${LATIN[i % LATIN.length]}${i}`
        : `${SURNAMES[i % SURNAMES.length]}${GIVEN[Math.floor(i / SURNAMES.length) % GIVEN.length]}`;
    return { name, email: `dev${i}@corp.example` };
  });
}

const TYPES = ['feat', 'fix', 'refactor', 'chore', 'perf', 'test', 'docs'];
const SCOPES = ['battle', 'ui', 'net', 'login', 'shop', 'guild', 'build', 'audio', 'map', 'pay'];
const PHRASES = [
  '修复登录后偶发白屏',
  'add retry to asset download',
  '优化战斗结算性能',
  'bump SDK to 4.2',
  '新增公会聊天表情',
  'fix crash on Android 9',
  '调整商城排序规则',
  'remove unused textures',
  '支持热更新断点续传',
  'tune GC for low-end devices',
];
const BRANCHES = ['main', 'main', 'main', 'main', 'main', 'main', 'develop', 'develop', 'develop', 'release/2.4'];

export interface Layout {
  rows: number;
  /** 0-based workflow rank → stored workflow id. */
  workflowIds: number[];
  appId: number;
}

/** Rows `from` to `to` (exclusive) of the layout, in commit-time order (ids grow with time, as ingestion does). */
export function generateRows(
  layout: Layout,
  from: number,
  to: number,
  people: Committer[],
  filters: Map<number, Set<string>>,
): Array<Insertable<CommitLogsTable>> {
  const pickWorkflow = zipf(WORKFLOWS, 0.8);
  const pickCommitter = zipf(COMMITTERS, 1);
  const step = (SPAN_DAYS * DAY) / layout.rows;
  const out: Array<Insertable<CommitLogsTable>> = [];
  for (let i = from; i < to; i += 1) {
    // One PRNG per row keeps a row's content independent of the batch it is generated in.
    const random = prng(i * 2654435761 + 17);
    const rank = pickWorkflow(random());
    const person = people[pickCommitter(random())] ?? { name: 'nobody', email: 'nobody@corp.example' };
    const commitTime = Math.floor((START_TIME + (i + random() * 0.9) * step) / 1000) * 1000;
    const branch = BRANCHES[Math.floor(random() * BRANCHES.length)] ?? 'main';
    const merge = random() < 0.05;
    const message = merge
      ? `Merge branch 'feature/${SCOPES[i % SCOPES.length]}-${i % 997}' into ${branch}`
      : `${TYPES[i % TYPES.length]}(${SCOPES[(i >> 3) % SCOPES.length]}): ${PHRASES[(i >> 1) % PHRASES.length]} #${1000 + (i % 9000)}${random() < 0.3 ? `\n\n${PHRASES[(i >> 2) % PHRASES.length]}，见 issue ${i % 5000}。` : ''}`;
    const tagged = random() < 0.01;
    const files = Array.from(
      { length: 1 + Math.floor(random() * 4) },
      (_, f) => `src/${SCOPES[(i + f) % SCOPES.length]}/module-${(i * 7 + f) % 300}.ts`,
    );
    const filter = filters.get(rank);
    const workflowId = layout.workflowIds[rank] ?? 0;
    out.push({
      app_id: layout.appId,
      workflow_id: workflowId,
      commit_id: createHash('sha1').update(`commit-${i}`).digest('hex'),
      commit_time: commitTime,
      branch,
      tag_name: tagged ? `v2.${Math.floor(i / 10_000)}.${i % 100}` : null,
      tag_summary: tagged ? JSON.stringify([`版本 ${i}`]) : '[]',
      commit_message: message,
      description: '',
      file_urls: '[]',
      remark: person.name,
      author_email: person.email,
      source_url: null,
      app_version_id: null,
      metadata: JSON.stringify({ files: { added: files.slice(0, 1), modified: files.slice(1), removed: [] } }),
      is_filtered: merge || (filter !== undefined && !filter.has(person.name)) ? 1 : 0,
      create_time: commitTime + 60_000,
      update_time: commitTime + 60_000,
    });
  }
  return out;
}

/**
 * Inserts the layout's rows: multi-row inserts of `batch` rows, `perTransaction` of them per transaction.
 * Returns the elapsed milliseconds.
 */
export async function loadRows(
  db: Kysely<Database>,
  layout: Layout,
  people: Committer[],
  filters: Map<number, Set<string>>,
  progress: (done: number) => void,
): Promise<number> {
  const started = performance.now();
  const batch = 1000;
  const perTransaction = 50;
  for (let from = 0; from < layout.rows; from += batch * perTransaction) {
    const end = Math.min(layout.rows, from + batch * perTransaction);
    await db.transaction().execute(async (trx) => {
      for (let start = from; start < end; start += batch) {
        await trx
          .insertInto('commit_logs')
          .values(generateRows(layout, start, Math.min(end, start + batch), people, filters))
          .execute();
      }
    });
    progress(end);
  }
  return performance.now() - started;
}
