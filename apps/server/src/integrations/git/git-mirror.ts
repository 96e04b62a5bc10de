import { randomBytes } from 'node:crypto';
import { access, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { matchesCommitter, trimMessageEnd, type BranchFilter, type SourceCommit } from '../source-commit.ts';
import type { RemoteLimits } from '../repo-access/repo-access-error.ts';
import { GitError, runGit, streamGit } from './git-command.ts';
import { clearStaleLocks } from './git-locks.ts';
import { FILES_ARGS, LOG_FORMAT, LogRecordParser, type LogRecord } from './git-log-parser.ts';
import { groupTagsByCommit, listTags, readHeadBranch, readRefs, type RefSnapshot, type TagRef } from './git-refs.ts';
import { classifyGitRemote, refusedRemoteMessage, type RemoteUrlOptions } from './remote-url.ts';

export interface SyncMirrorOptions extends RemoteUrlOptions {
  /** Limit for the clone or fetch. Default 10 minutes (the remote's command limit when `remote` is given). */
  timeoutMs?: number;
  /** Connect and idle limits of the clone or fetch, and the checked address to connect to. */
  remote?: RemoteLimits;
}

export type RefChange = 'created' | 'updated' | 'forced' | 'deleted';

export interface RefUpdate {
  kind: 'branch' | 'tag';
  /** Short name (`main`, `v1.0`). */
  name: string;
  oldId: string | null;
  newId: string | null;
  /** `forced` = the old tip is no longer an ancestor of the new one (history was rewritten). */
  change: RefChange;
}

export interface SyncMirrorResult {
  /** True when this call created the mirror (first clone). */
  created: boolean;
  /** What changed since the previous sync; on creation, every ref as `created`. */
  updates: RefUpdate[];
}

const DEFAULT_SYNC_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_READ_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_MAX_COMMITS = 1000;
const DEFAULT_BATCH_SIZE = 10_000;
/** Handed-over batches the walk runs ahead of (one being stored, one waiting): memory stays bounded. */
const MAX_PENDING_BATCHES = 2;
/**
 * Walked commits the store is asked about at once: a pipe read of `git log` holds a few dozen, and a question per read
 * cost a round trip and a plan each (bench/git-ingest.ts: 2,000 questions for 100,000 commits, most of PostgreSQL's
 * time). One statement of the store's (it asks in 5,000-id chunks).
 */
const KNOWN_QUESTION = 1_000;
const STALE_LOCK_GRACE_MS = 60_000;

/**
 * Brings the bare mirror at `mirrorDir` up to date with `remoteUrl`: `git clone --bare` the first time (into a
 * temporary sibling, renamed into place, so a crash never leaves half a mirror), later `git fetch --prune
 * --prune-tags`. Only branches and tags are mirrored (`+refs/heads/*` and `+refs/tags/*`, forced), never a host's
 * `refs/pull/*`. Returns the ref changes, force-pushes flagged.
 */
export async function syncMirror(
  remoteUrl: string,
  mirrorDir: string,
  options: SyncMirrorOptions = {},
): Promise<SyncMirrorResult> {
  const kind = classifyGitRemote(remoteUrl, options);
  if (kind === null)
    throw new GitError('invalid_remote', `refused remote ${remoteUrl}`, refusedRemoteMessage(remoteUrl, options));
  const run = {
    timeoutMs: options.timeoutMs ?? options.remote?.timeouts.commandMs ?? DEFAULT_SYNC_TIMEOUT_MS,
    allowFile: kind === 'file',
  };
  // Only clone and fetch talk to the remote; every other command works on the mirror on disk.
  const talk = { ...run, remote: kind === 'file' ? undefined : options.remote };
  try {
    return await updateMirror(remoteUrl, mirrorDir, run, talk);
  } catch (error) {
    // A remote that cannot be read says the same whatever was (or was not) there, unless it asked for credentials.
    if (
      kind !== 'file' &&
      error instanceof GitError &&
      ['remote_not_found', 'command_failed', 'timeout', 'bad_output'].includes(error.reason)
    )
      throw new GitError('remote_unreachable', error.detail);
    throw error;
  }
}

type MirrorRun = { timeoutMs: number; allowFile: boolean };

async function updateMirror(
  remoteUrl: string,
  mirrorDir: string,
  run: MirrorRun,
  talk: MirrorRun & { remote?: RemoteLimits },
): Promise<SyncMirrorResult> {
  const state = await inspectMirrorDir(mirrorDir);
  if (state === 'foreign') throw new GitError('not_a_mirror', mirrorDir);
  if (state === 'missing') {
    const created = await cloneMirror(remoteUrl, mirrorDir, run, talk);
    if (created)
      return {
        created: true,
        updates: diffRefs({ branches: new Map(), tags: new Map() }, await readRefs(mirrorDir), new Set()),
      };
  }
  await clearStaleLocks(mirrorDir, 2 * run.timeoutMs + STALE_LOCK_GRACE_MS);
  await runGit(['config', 'remote.origin.url', remoteUrl], { ...run, gitDir: mirrorDir });
  const before = await readRefs(mirrorDir);
  await runGit(['fetch', '--prune', '--prune-tags', '--quiet', 'origin'], { ...talk, gitDir: mirrorDir });
  // Mirrors cloned before commit-graphs were written get theirs once; fetches keep it current from then on.
  if (!(await hasCommitGraph(mirrorDir))) await writeCommitGraph(mirrorDir, run);
  const after = await readRefs(mirrorDir);
  const forced = new Set<string>();
  for (const [name, newId] of after.branches) {
    const oldId = before.branches.get(name);
    if (oldId === undefined || oldId === newId) continue;
    const { exitCode } = await runGit(
      ['merge-base', '--is-ancestor', oldId, newId],
      { ...run, gitDir: mirrorDir },
      [0, 1, 128],
    );
    if (exitCode !== 0) forced.add(name);
  }
  return { created: false, updates: diffRefs(before, after, forced) };
}

async function inspectMirrorDir(mirrorDir: string): Promise<'missing' | 'mirror' | 'foreign'> {
  let entries: string[];
  try {
    entries = await readdir(mirrorDir);
  } catch {
    return 'missing';
  }
  if (entries.length === 0) return 'missing';
  const { stdout, exitCode } = await runGit(
    ['rev-parse', '--is-bare-repository'],
    { gitDir: mirrorDir, timeoutMs: 30_000 },
    [0, 128],
  );
  return exitCode === 0 && stdout.trim() === 'true' ? 'mirror' : 'foreign';
}

/** Clones into a temporary sibling and renames it into place; false when another process won the race. */
async function cloneMirror(
  remoteUrl: string,
  mirrorDir: string,
  run: MirrorRun,
  talk: MirrorRun & { remote?: RemoteLimits },
): Promise<boolean> {
  await mkdir(dirname(mirrorDir), { recursive: true });
  const temp = `${mirrorDir}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    await runGit(['clone', '--bare', '--quiet', '--', remoteUrl, temp], talk);
    await runGit(['config', 'remote.origin.fetch', '+refs/heads/*:refs/heads/*'], { ...run, gitDir: temp });
    await runGit(['config', '--add', 'remote.origin.fetch', '+refs/tags/*:refs/tags/*'], { ...run, gitDir: temp });
    await writeCommitGraph(temp, run);
    try {
      await rename(temp, mirrorDir);
      return true;
    } catch (error) {
      if ((await inspectMirrorDir(mirrorDir)) === 'mirror') return false;
      throw new GitError('not_a_mirror', `${mirrorDir}: ${String(error)}`);
    }
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

async function hasCommitGraph(gitDir: string): Promise<boolean> {
  for (const file of ['objects/info/commit-graph', 'objects/info/commit-graphs/commit-graph-chain']) {
    try {
      await access(join(gitDir, file));
      return true;
    } catch {
      // not this one
    }
  }
  return false;
}

/**
 * A commit-graph lets `git log --date-order` print its first commit at once instead of after walking the whole
 * history (a 100,000-commit mirror: 0.08 s instead of 0.5 s before the first byte, so our parsing overlaps git's
 * walk), and makes `diff-tree` read commits faster. Written once (0.7 s for 100,000 commits); with
 * fetch.writeCommitGraph every later fetch adds a small layer. Best effort: a mirror without one still works.
 */
async function writeCommitGraph(gitDir: string, run: { timeoutMs: number; allowFile: boolean }): Promise<void> {
  try {
    await runGit(['config', 'fetch.writeCommitGraph', 'true'], { ...run, gitDir });
    await runGit(['commit-graph', 'write', '--reachable', '--split'], { ...run, gitDir });
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
  }
}

function diffRefs(before: RefSnapshot, after: RefSnapshot, forced: ReadonlySet<string>): RefUpdate[] {
  const updates: RefUpdate[] = [];
  const compare = (kind: RefUpdate['kind'], old: Map<string, string>, now: Map<string, string>): void => {
    for (const [name, newId] of now) {
      const oldId = old.get(name) ?? null;
      if (oldId === newId) continue;
      const change: RefChange =
        oldId === null ? 'created' : kind === 'branch' && forced.has(name) ? 'forced' : 'updated';
      updates.push({ kind, name, oldId, newId, change });
    }
    for (const [name, oldId] of old)
      if (!now.has(name)) updates.push({ kind, name, oldId, newId: null, change: 'deleted' });
  };
  compare('branch', before.branches, after.branches);
  compare('tag', before.tags, after.tags);
  return updates;
}

export interface ReadCommitsOptions {
  /** Stop after this many new commits (newest first); `truncated` tells whether older new ones remain. Default 1000. */
  maxCommits?: number;
  /**
   * Commits whose whole history an earlier call with the same filter already walked — its `tips`. They and their
   * ancestors are skipped (missing objects are ignored), which keeps a poll of a 100,000-commit repository cheap.
   * Drop them when the filter changes, or when that call was truncated and the older commits are still wanted.
   */
  knownTips?: readonly string[];
  /** Read added/modified/removed files (diffed in the same walk, for every commit walked). Default true. */
  withFiles?: boolean;
  timeoutMs?: number;
  /**
   * Hands over every `batchSize` new commits (complete with tags and files) while the walk goes on, so a long
   * history is walked once in bounded memory. One call at a time, in order: the walk goes on while a batch is
   * handled (git and the database work meanwhile) and waits when two batches are pending. The read answers after
   * the last call is done, and fails if one failed (the batches behind it are not handed over). Such commits are
   * not in `commits`.
   */
  onBatch?: (commits: SourceCommit[]) => Promise<void>;
  /** Commits per onBatch call. Default 10,000. */
  batchSize?: number;
  /** Commits in the first onBatch call (default batchSize): a small one lets the store start while git walks on. */
  firstBatchSize?: number;
}

export interface ReadCommitsResult {
  /** New commits, oldest first. */
  commits: SourceCommit[];
  truncated: boolean;
  /** The filtered branches found, in attribution order, with their tips: the next call's `knownTips`. */
  branches: { name: string; tip: string }[];
  tips: string[];
  /** Filtered branches the mirror does not have (deleted or misspelt). */
  missingBranches: string[];
  /** Commits walked, new or not. */
  scanned: number;
}

/**
 * Lists the commits of the filtered branches that `seen` does not know, in ONE streamed `git log --date-order`
 * over all branch tips. Each commit is attributed to the first filtered branch (in filter order; for an empty
 * filter the default branch, then by name) that contains it: git prints children before parents, so the best
 * branch index flows down the graph while streaming, and only the walk's frontier is held in memory.
 *
 * Identity is the commit sha: the caller stores commits unique by (workflow, commitId) and answers `known` from
 * that store, once per KNOWN_QUESTION walked commits (and for the rest at the end): which of these ids it already has. Nothing
 * the size of the stored history is held. A force-push then yields only the rewritten commits (kept ones are known,
 * dropped ones stay stored); a deleted branch yields nothing and loses nothing. The committers filter is applied
 * here, on author name/email.
 */
export async function readNewCommits(
  mirrorDir: string,
  filter: BranchFilter,
  known: (commitIds: string[]) => Promise<ReadonlySet<string>>,
  options: ReadCommitsOptions = {},
): Promise<ReadCommitsResult> {
  const maxCommits = Math.max(1, options.maxCommits ?? DEFAULT_MAX_COMMITS);
  const timeoutMs = options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  const refs = await readRefs(mirrorDir);
  const order =
    filter.branches.length > 0
      ? filter.branches
      : defaultOrder([...refs.branches.keys()], await readHeadBranch(mirrorDir));
  const branches = order.flatMap((name) => {
    const tip = refs.branches.get(name);
    return tip === undefined ? [] : [{ name, tip }];
  });
  const result: ReadCommitsResult = {
    commits: [],
    truncated: false,
    branches,
    tips: [...new Set(branches.map((branch) => branch.tip))],
    missingBranches: order.filter((name) => !refs.branches.has(name)),
    scanned: 0,
  };
  if (branches.length === 0) return result;

  const tipIndex = new Map<string, number>();
  branches.forEach(({ tip }, index) => {
    if (!tipIndex.has(tip)) tipIndex.set(tip, index);
  });
  // Best (lowest) branch index reaching each commit not printed yet; git prints every child first.
  const branchOf = new Map<string, number>();
  const input = [...result.tips, ...(options.knownTips ?? []).map((id) => `^${id}`)].join('\n');
  const withFiles = options.withFiles !== false;
  const args = [
    'log',
    '--stdin',
    '--ignore-missing',
    '--date-order',
    '-z',
    LOG_FORMAT,
    ...(withFiles ? FILES_ARGS : []),
  ];
  const parser = new LogRecordParser(withFiles);
  /** The records of each chunk of git's output, then the last one: a microtask per chunk, not per commit. */
  async function* recordChunks(): AsyncGenerator<LogRecord[]> {
    for await (const chunk of streamGit(args, { gitDir: mirrorDir, timeoutMs, input: `${input}\n` }))
      yield parser.push(chunk);
    yield parser.finish();
  }
  let found: SourceCommit[] = [];
  let delivered = 0;
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
  const firstBatchSize = Math.max(1, options.firstBatchSize ?? batchSize);
  let tags: Promise<Map<string, TagRef[]>> | null = null;
  /** Tags onto the commits found so far (newest first), answered oldest first. */
  const complete = async (commits: SourceCommit[]): Promise<SourceCommit[]> => {
    tags ??= listTags(mirrorDir).then(groupTagsByCommit);
    const tagsByCommit = await tags;
    for (const commit of commits) {
      const commitTags = tagsByCommit.get(commit.commitId) ?? [];
      commit.tags = commitTags.map((tag) => tag.name);
      commit.tagSummary = commitTags.map((tag) => tag.message ?? '');
    }
    return commits.reverse();
  };
  // Handed-over batches, oldest first: each is handed over after the one before it while the walk goes on; the
  // walk waits only when MAX_PENDING_BATCHES are pending. A failure stops the batches behind it.
  const pending: Array<Promise<void>> = [];
  let handing: Promise<void> = Promise.resolve();
  /** Walked commits of the filtered committers, with their branch, not yet asked about. */
  let candidates: Array<{ record: LogRecord; index: number }> = [];
  /** Asks the store about the candidates at once and keeps the new ones; false when maxCommits cut the read short. */
  const settle = async (): Promise<boolean> => {
    const asked = candidates;
    candidates = [];
    if (asked.length === 0) return true;
    const stored = await known(asked.map(({ record }) => record.id));
    for (const { record, index } of asked) {
      if (stored.has(record.id)) continue;
      if (delivered + found.length === maxCommits) {
        result.truncated = true;
        return false;
      }
      found.push({
        commitId: record.id,
        branch: branches[index]?.name ?? null,
        authorName: record.authorName,
        authorEmail: record.authorEmail === '' ? null : record.authorEmail,
        commitTime: record.committedAt * 1000,
        message: trimMessageEnd(record.message),
        tags: [],
        tagSummary: [],
        url: null,
        files: record.files,
      });
      if (options.onBatch && found.length === (delivered === 0 ? firstBatchSize : batchSize)) {
        const [onBatch, batch] = [options.onBatch, found];
        found = [];
        delivered += batch.length;
        if (pending.length === MAX_PENDING_BATCHES) await pending.shift();
        handing = handing.then(async () => onBatch(await complete(batch)));
        // Awaited when the walk waits for it or at the end; until then a failure must not count as unhandled.
        handing.catch(() => undefined);
        pending.push(handing);
      }
    }
    return true;
  };
  try {
    let going = true;
    for await (const records of recordChunks()) {
      for (const record of records) {
        result.scanned += 1;
        const index = Math.min(branchOf.get(record.id) ?? Infinity, tipIndex.get(record.id) ?? Infinity);
        branchOf.delete(record.id);
        for (const parent of record.parents) branchOf.set(parent, Math.min(branchOf.get(parent) ?? Infinity, index));
        if (matchesCommitter(filter.committers, record.authorName, record.authorEmail))
          candidates.push({ record, index });
      }
      // A pipe read holds a few dozen commits: the store is asked once per KNOWN_QUESTION of them instead.
      if (candidates.length < KNOWN_QUESTION) continue;
      going = await settle();
      if (!going) break;
    }
    if (going) await settle();
    await handing;
  } finally {
    // On a failure, batches already being stored finish before the read answers.
    await Promise.allSettled(pending);
  }
  if (found.length === 0) return result;
  result.commits = await complete(found);
  return result;
}

/** Without a branch filter: the default branch first, then the others by name. */
function defaultOrder(names: string[], head: string | null): string[] {
  const sorted = names.sort();
  return head !== null && sorted.includes(head) ? [head, ...sorted.filter((name) => name !== head)] : sorted;
}
