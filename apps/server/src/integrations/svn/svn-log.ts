import { matchesFilter, trimMessageEnd, type BranchFilter, type SourceCommit } from '../source-commit.ts';
import { refusedRepoUrlMessage } from '../refused-repo-url.ts';
import { isAllowedSvnUrl, runSvn, SvnError, svnTarget, type SvnRunOptions } from './svn-command.ts';
import { parseSvnInfoXml, parseSvnLogXml, type SvnChangedPath, type SvnInfo, type SvnLogEntry } from './svn-xml.ts';

export interface ReadSvnLogOptions extends SvnRunOptions {
  /** First revision to read (inclusive). Default 1. */
  fromRevision?: number;
  /** Most revisions read per call (before filtering). Default 500. */
  limit?: number;
  /** Branches (`trunk`, branch names) and committers to keep; default everything. */
  filter?: BranchFilter;
}

export interface SvnLogResult {
  /** Matching revisions, oldest first. */
  commits: SourceCommit[];
  /**
   * The highest revision read, matching the filter or not; the next poll starts at lastRevision + 1. Null when
   * nothing was read (a path URL untouched since fromRevision): then advance the cursor to svnHead().revision.
   */
  lastRevision: number | null;
  /** True when `limit` revisions came back, so more may follow right away. */
  hasMore: boolean;
}

const DEFAULT_LIMIT = 500;
/** svn's "No such revision": asking for revisions after the youngest one. */
const NO_SUCH_REVISION = 'E160006';

function assertUrl(repoUrl: string, options: SvnRunOptions): void {
  if (!isAllowedSvnUrl(repoUrl, options))
    throw new SvnError(
      'invalid_url',
      `refused URL ${repoUrl}`,
      refusedRepoUrlMessage('svn', repoUrl, options.allowFile !== false),
    );
}

/**
 * Reads revisions `fromRevision..HEAD` (oldest first, at most `limit`) with `svn log --xml -v`, as SourceCommits
 * with commitId `r<revision>`. Asking beyond the youngest revision is not an error: it returns nothing.
 */
export async function readSvnLog(repoUrl: string, options: ReadSvnLogOptions = {}): Promise<SvnLogResult> {
  assertUrl(repoUrl, options);
  const from = Math.max(0, Math.floor(options.fromRevision ?? 1));
  const limit = Math.max(1, Math.floor(options.limit ?? DEFAULT_LIMIT));
  let xml: string;
  try {
    xml = await runSvn(
      ['log', '--xml', '-v', '-r', `${from}:HEAD`, '--limit', String(limit), '--', svnTarget(repoUrl)],
      options,
    );
  } catch (error) {
    if (error instanceof SvnError && error.codes.includes(NO_SUCH_REVISION))
      return { commits: [], lastRevision: null, hasMore: false };
    throw error;
  }
  const entries = parseSvnLogXml(xml).sort((a, b) => a.revision - b.revision);
  const commits = entries
    .map(svnEntryToCommit)
    .filter((commit) => options.filter === undefined || matchesFilter(options.filter, commit));
  return { commits, lastRevision: entries.at(-1)?.revision ?? null, hasMore: entries.length >= limit };
}

/** `svn info --xml`: the youngest revision (`revision`) and the last one that changed the URL's path. */
export async function svnHead(repoUrl: string, options: SvnRunOptions = {}): Promise<SvnInfo> {
  assertUrl(repoUrl, options);
  return parseSvnInfoXml(await runSvn(['info', '--xml', '--', svnTarget(repoUrl)], options));
}

export interface SvnLocation {
  branch: string | null;
  tag: string | null;
}

/**
 * Where a repository path lives in the conventional layout, at any depth (`/project/trunk/...` too):
 * `/trunk/...` → trunk, `/branches/<name>/...` → name, `/tags/<name>...` → tag name.
 */
export function svnLocationOf(path: string): SvnLocation {
  const segments = path.split('/').filter((segment) => segment !== '');
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i];
    const next = segments[i + 1];
    if (segment === 'trunk') return { branch: 'trunk', tag: null };
    if (segment === 'branches' && next !== undefined) return { branch: next, tag: null };
    if (segment === 'tags' && next !== undefined) return { branch: null, tag: next };
  }
  return { branch: null, tag: null };
}

function branchOf(paths: readonly SvnChangedPath[]): string | null {
  for (const path of paths) {
    const { branch } = svnLocationOf(path.path);
    if (branch !== null) return branch;
  }
  // A tag-only revision belongs to the branch it was copied from.
  for (const path of paths) {
    if (path.copyFromPath !== null) {
      const { branch } = svnLocationOf(path.copyFromPath);
      if (branch !== null) return branch;
    }
  }
  return null;
}

/**
 * One log entry as a SourceCommit. Tags are the tag directories the revision touched, each summarised by the
 * revision's message (an svn tag is a commit of its own). Files are repository-absolute paths; a replaced path
 * counts as modified.
 */
export function svnEntryToCommit(entry: SvnLogEntry): SourceCommit {
  const message = trimMessageEnd(entry.message);
  const tags = [
    ...new Set(entry.paths.map((path) => svnLocationOf(path.path).tag).filter((tag): tag is string => tag !== null)),
  ];
  const files = { added: [] as string[], modified: [] as string[], removed: [] as string[] };
  for (const path of entry.paths) {
    if (path.action === 'A') files.added.push(path.path);
    else if (path.action === 'D') files.removed.push(path.path);
    else files.modified.push(path.path);
  }
  return {
    commitId: `r${entry.revision}`,
    branch: branchOf(entry.paths),
    authorName: entry.author ?? '',
    authorEmail: null,
    commitTime: entry.date ?? 0,
    message,
    tags,
    tagSummary: tags.map(() => message),
    url: null,
    files: entry.paths.length > 0 ? files : null,
  };
}
