import { runGit } from './git-command.ts';

/** Reads of a local mirror only (no remote): a few seconds at most even on a 100,000-commit history. */
const RANGE_TIMEOUT_MS = 30_000;
/** A commit as given by CI: a full or abbreviated sha (git's own minimum abbreviation is 4; we ask for 7). */
export const COMMIT_REF = /^[0-9a-f]{7,64}$/i;

/**
 * The full id of the commit `ref` names in the mirror (a sha or an abbreviation of one, or a branch or tag name when
 * `allowNames`), or null when the mirror has no such commit (yet) or the abbreviation is ambiguous.
 */
export async function resolveCommit(
  gitDir: string,
  ref: string,
  options: { allowNames?: boolean } = {},
): Promise<string | null> {
  if (!options.allowNames && !COMMIT_REF.test(ref)) return null;
  // `--end-of-options` keeps a name that starts with '-' from being read as an option.
  const { stdout, exitCode } = await runGit(
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`],
    { gitDir, timeoutMs: RANGE_TIMEOUT_MS },
    [0, 1, 128],
  );
  const id = stdout.trim();
  return exitCode === 0 && /^[0-9a-f]{40,64}$/.test(id) ? id : null;
}

export interface RangeCommit {
  commitId: string;
  /** Epoch milliseconds, committer date (what the update list sorts by). */
  commitTime: number;
  authorName: string;
  authorEmail: string;
  /** The first line of the message. */
  subject: string;
}

export interface CommitRange {
  /** Commits in `to` and not in `from` (merges left out), newest first, at most `limit`. */
  commits: RangeCommit[];
  /** How many such commits there are in all. */
  total: number;
  /** Commits in `from` and not in `to`: > 0 when the two builds' histories diverged (another branch, a force-push). */
  behind: number;
}

const FIELD = '\u001f';

/**
 * What happened between two source states: `git rev-list from..to` (real ancestry: commits brought in by merges
 * count, the merge commits themselves do not), its count, and the count the other way, which tells a build made
 * from a branch that diverged. Both ids must be in the mirror (resolveCommit). The history between two full ids never
 * changes (a commit names its ancestry), so the answer is kept in memory: the install page shows the changes of the
 * offered builds on every load and runs git only the first time (what items say about the commits is read from the
 * database each time, so items that arrive later still show).
 */
export async function commitsBetween(gitDir: string, from: string, to: string, limit: number): Promise<CommitRange> {
  // Two full commit ids name the same history forever: their range is read from git once per process (and a flood
  // of page loads arriving together waits for the one read under way).
  const key = FULL_ID.test(from) && FULL_ID.test(to) ? `${gitDir}\0${from}\0${to}\0${limit}` : null;
  if (!key) return readRange(gitDir, from, to, limit);
  const known = ranges.get(key);
  if (known) {
    ranges.delete(key);
    ranges.set(key, known);
    return known;
  }
  const reading = readRange(gitDir, from, to, limit);
  ranges.set(key, reading);
  void reading.catch(() => ranges.delete(key));
  for (const oldest of ranges.keys()) {
    if (ranges.size <= RANGE_CACHE_ENTRIES) break;
    ranges.delete(oldest);
  }
  return reading;
}

const FULL_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/** Ranges kept (least recently used goes first): at most 200 commits each, a few MB in all. */
const RANGE_CACHE_ENTRIES = 500;
const ranges = new Map<string, Promise<CommitRange>>();

async function readRange(gitDir: string, from: string, to: string, limit: number): Promise<CommitRange> {
  // The counts and the newest commits are read at once (two processes side by side, not one after the other).
  const [counts, listed] = await Promise.all([
    runGit(['rev-list', '--no-merges', '--count', '--left-right', `${from}...${to}`], {
      gitDir,
      timeoutMs: RANGE_TIMEOUT_MS,
    }),
    limit > 0
      ? runGit(
          [
            'log',
            '--no-merges',
            `--max-count=${limit}`,
            `--format=%H${FIELD}%ct${FIELD}%an${FIELD}%ae${FIELD}%s`,
            '-z',
            `^${from}`,
            to,
          ],
          { gitDir, timeoutMs: RANGE_TIMEOUT_MS },
        )
      : Promise.resolve({ stdout: '' }),
  ]);
  const [behind = 0, total = 0] = counts.stdout.trim().split(/\s+/).map(Number);
  const stdout = total === 0 ? '' : listed.stdout;
  const commits = stdout
    .split('\0')
    .filter((record) => record.trim() !== '')
    .map((record): RangeCommit => {
      const [commitId = '', time = '0', authorName = '', authorEmail = '', subject = ''] = record
        .replace(/^\n/, '')
        .split(FIELD);
      return { commitId, commitTime: Number(time) * 1000, authorName, authorEmail, subject };
    });
  return { commits, total, behind };
}
