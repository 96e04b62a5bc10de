/**
 * The one shape every commit source (git mirror polling, svn log, push webhooks) is normalised to.
 * Identity is `commitId`: callers store commits unique by (workflow, commitId), so a commit reported twice
 * (a webhook and a poll, a force-push that kept it, a branch created from it) is never duplicated.
 */
export interface SourceCommit {
  /** Full git sha, or `r<revision>` for svn. */
  commitId: string;
  /** Short branch name (no `refs/heads/`); null when the source cannot tell. */
  branch: string | null;
  authorName: string;
  authorEmail: string | null;
  /** Epoch milliseconds (git: committer date; svn: revision date; webhooks: the host's commit timestamp). */
  commitTime: number;
  /** Full message as written, only trailing line breaks removed. */
  message: string;
  /** Tag names pointing at this commit. */
  tags: string[];
  /** Annotated tag message of each entry of `tags`, same order; '' for a lightweight tag. */
  tagSummary: string[];
  /** Web link when the host gives one. */
  url: string | null;
  files: CommitFiles | null;
}

export interface CommitFiles {
  added: string[];
  modified: string[];
  removed: string[];
}

export interface BranchFilter {
  /** Short branch names; empty = all branches. */
  branches: string[];
  /** Author names or emails (case-insensitive); empty = everybody. */
  committers: string[];
}

const HEADS_PREFIX = 'refs/heads/';

/** `refs/heads/release/2.4` → `release/2.4`; anything else is returned trimmed. */
export function shortBranchName(ref: string): string {
  const value = ref.trim();
  return value.startsWith(HEADS_PREFIX) ? value.slice(HEADS_PREFIX.length) : value;
}

/** True when the committers filter is empty or names this author (by name or email, case-insensitive). */
export function matchesCommitter(
  committers: readonly string[],
  authorName: string,
  authorEmail: string | null,
): boolean {
  if (committers.length === 0) return true;
  const name = authorName.trim().toLowerCase();
  const email = authorEmail?.trim().toLowerCase() ?? '';
  return committers.some((entry) => {
    const wanted = entry.trim().toLowerCase();
    return wanted.length > 0 && (wanted === name || wanted === email);
  });
}

/** True when the commit passes both halves of the filter (a commit without a branch passes only an empty branch list). */
export function matchesFilter(
  filter: BranchFilter,
  commit: Pick<SourceCommit, 'branch' | 'authorName' | 'authorEmail'>,
): boolean {
  const branchOk = filter.branches.length === 0 || (commit.branch !== null && filter.branches.includes(commit.branch));
  return branchOk && matchesCommitter(filter.committers, commit.authorName, commit.authorEmail);
}

/** Removes trailing line breaks only: hosts disagree on the final "\n", the rest is kept exactly. */
export function trimMessageEnd(message: string): string {
  return message.replace(/[\r\n]+$/, '');
}
