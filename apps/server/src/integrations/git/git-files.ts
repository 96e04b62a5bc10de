import type { CommitFiles } from '../source-commit.ts';
import { GitError, streamGit } from './git-command.ts';

const RECORD_START = '\u001e';

/**
 * The files each given commit added, modified and removed, in one `git log --no-walk` call fed through stdin.
 * Merges are compared with their first parent (what the merge brought into the branch); renames are reported
 * as a removal plus an addition, like the hosts' webhooks do.
 */
export async function readCommitFiles(gitDir: string, commitIds: readonly string[], timeoutMs: number): Promise<Map<string, CommitFiles>> {
  const files = new Map<string, CommitFiles>();
  if (commitIds.length === 0) return files;
  const args = ['log', '--no-walk=unsorted', '--stdin', '-z', '--format=%x1e%H', '--name-status', '--no-renames', '--diff-merges=first-parent'];
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
  for await (const chunk of streamGit(args, { gitDir, timeoutMs, input: `${commitIds.join('\n')}\n` })) {
    buffer += chunk;
    let start = 0;
    for (let end = buffer.indexOf('\0'); end !== -1; end = buffer.indexOf('\0', start)) {
      take(buffer.slice(start, end));
      start = end + 1;
    }
    buffer = buffer.slice(start);
  }
  if (buffer.trim() !== '' || status !== null) throw new GitError('bad_output', 'git log --name-status ended inside an entry');
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
