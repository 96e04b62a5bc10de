import type { CommitFiles } from '../source-commit.ts';
import { GitError, streamGit } from './git-command.ts';

const RECORD_START = '\u001e';

/** Text fed to a git process as it is produced: `push` never blocks, `close` ends it. */
function createFeed(): { push(text: string): void; close(): void; iterable: AsyncIterable<string> } {
  let pending: string[] = [];
  let closed = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  return {
    push(text) {
      pending.push(text);
      notify();
    },
    close() {
      closed = true;
      notify();
    },
    iterable: {
      async *[Symbol.asyncIterator]() {
        for (;;) {
          if (pending.length > 0) {
            // Everything queued since the last write goes as one write.
            const text = pending.join('');
            pending = [];
            yield text;
          } else if (closed) {
            return;
          } else {
            await new Promise<void>((resolve) => (wake = resolve));
          }
        }
      },
    },
  };
}

export interface CommitFilesReader {
  /** Queues a commit: its files are its diff against `firstParent` (all added when null: a root commit). */
  add(commitId: string, firstParent: string | null): void;
  /** No more commits: resolves with the files of every queued commit. */
  finish(): Promise<Map<string, CommitFiles>>;
}

/**
 * The files each queued commit added, modified and removed, from ONE `git diff-tree --stdin` fed while the caller
 * is still walking the history: git diffs the commits found so far on another core instead of after the walk.
 * Merges are compared with their first parent (what the merge brought into the branch); renames are reported as a
 * removal plus an addition, like the hosts' webhooks do.
 */
export function startCommitFiles(gitDir: string, timeoutMs: number): CommitFilesReader {
  const feed = createFeed();
  const args = ['diff-tree', '--stdin', '-r', '-z', '--root', '--always', '--name-status', '--no-renames', '--format=%x1e%H'];
  const result = collectFiles(streamGit(args, { gitDir, timeoutMs, feed: feed.iterable }));
  // Rejections are answered by finish(); until it is called they must not count as unhandled.
  result.catch(() => undefined);
  return {
    add(commitId, firstParent) {
      feed.push(firstParent ? `${commitId} ${firstParent}\n` : `${commitId}\n`);
    },
    finish() {
      feed.close();
      return result;
    },
  };
}

/** Parses `-z --name-status --format=%x1e%H` output: a record-start token with the commit id, then status/path pairs. */
async function collectFiles(output: AsyncIterable<string>): Promise<Map<string, CommitFiles>> {
  const files = new Map<string, CommitFiles>();
  let buffer = '';
  let current: CommitFiles | null = null;
  let status: string | null = null;
  const take = (token: string): void => {
    if (status !== null) {
      if (!current) throw new GitError('bad_output', 'file entry before any commit');
      addFile(current, status, token);
      status = null;
      return;
    }
    const trimmed = token.startsWith('\n') ? token.slice(1) : token;
    if (trimmed.startsWith(RECORD_START)) {
      current = { added: [], modified: [], removed: [] };
      files.set(trimmed.slice(1), current);
    } else if (trimmed !== '') {
      status = trimmed;
    }
  };
  for await (const chunk of output) {
    buffer += chunk;
    let start = 0;
    for (let end = buffer.indexOf('\0'); end !== -1; end = buffer.indexOf('\0', start)) {
      take(buffer.slice(start, end));
      start = end + 1;
    }
    buffer = buffer.slice(start);
  }
  if (buffer.trim() !== '' || status !== null) throw new GitError('bad_output', 'git diff-tree --name-status ended inside an entry');
  return files;
}

function addFile(files: CommitFiles, status: string, path: string): void {
  switch (status.charAt(0)) {
    case 'A':
      files.added.push(path);
      break;
    case 'D':
      files.removed.push(path);
      break;
    default:
      files.modified.push(path);
  }
}
