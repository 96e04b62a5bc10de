import type { CommitFiles } from '../source-commit.ts';
import { GitError } from './git-command.ts';

/** One commit as `git log` printed it with LOG_FORMAT. */
export interface LogRecord {
  id: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  /** Committer date, epoch seconds. */
  committedAt: number;
  message: string;
  /** With FILES_ARGS: what the commit added, modified and removed (against its first parent); otherwise null. */
  files: CommitFiles | null;
}

const RECORD_START = '\u001e';
const FIELD_COUNT = 6;

/**
 * Format for `git log -z`: fields separated by NUL, each record terminated by NUL (from -z) and opened by a
 * record-separator byte, so the token stream can be checked for drift. %B is the raw message.
 */
export const LOG_FORMAT = '--format=%x1e%H%x00%P%x00%an%x00%ae%x00%ct%x00%B';

/**
 * Added to `git log`: each record is followed by its files as status/path token pairs, diffed in the same walk. A
 * merge is compared with its first parent (what it brought into the branch), the root commit lists everything as
 * added, and a rename is a removal plus an addition, as the hosts' webhooks report it (rename detection would also
 * cost several times the walk).
 */
export const FILES_ARGS = ['--name-status', '--no-renames', '--diff-merges=first-parent', '--root'] as const;

/**
 * Incremental parser: feed it text chunks in order, it returns the records completed by each chunk (a record is
 * complete when the next one starts: its files come after it), and the last one from `finish`. Only the
 * unfinished tail of the stream is buffered, so memory does not grow with the history.
 */
export class LogRecordParser {
  private buffer = '';
  private fields: string[] = [];
  /** The record whose file entries are being read. */
  private current: LogRecord | null = null;
  /** A status token read, its path not yet. */
  private status: string | null = null;

  constructor(private readonly withFiles = false) {}

  push(chunk: string): LogRecord[] {
    this.buffer += chunk;
    const records: LogRecord[] = [];
    let start = 0;
    for (let end = this.buffer.indexOf('\0', start); end !== -1; end = this.buffer.indexOf('\0', start)) {
      const token = this.buffer.slice(start, end);
      start = end + 1;
      if (this.fields.length > 0) {
        this.fields.push(token);
        if (this.fields.length === FIELD_COUNT) {
          this.current = toRecord(this.fields, this.withFiles);
          this.fields = [];
        }
      } else if (this.status !== null) {
        if (!this.current?.files) throw new GitError('bad_output', 'git log listed a file outside a record');
        addFile(this.current.files, this.status, token);
        this.status = null;
      } else {
        // Between records (and before a record's first file) git prints the -z terminator's newline.
        const trimmed = token.charCodeAt(0) === 10 ? token.slice(1) : token;
        if (trimmed.startsWith(RECORD_START) || !this.withFiles || this.current === null) {
          if (this.current) records.push(this.current);
          this.current = null;
          this.fields.push(trimmed);
        } else if (trimmed !== '') {
          this.status = trimmed;
        }
      }
    }
    this.buffer = this.buffer.slice(start);
    return records;
  }

  /** Call after the last chunk: the last record; throws when the stream stopped inside one. */
  finish(): LogRecord[] {
    if (this.buffer.trim() !== '' || this.fields.length > 0 || this.status !== null)
      throw new GitError('bad_output', 'git log output ended inside a record');
    const last = this.current;
    this.current = null;
    return last ? [last] : [];
  }
}

function toRecord(fields: string[], withFiles: boolean): LogRecord {
  const [id = '', parents = '', authorName = '', authorEmail = '', committedAt = '', message = ''] = fields;
  if (!id.startsWith(RECORD_START) || !/^[0-9a-f]{40,64}$/.test(id.slice(1))) {
    throw new GitError('bad_output', `unexpected git log record start ${JSON.stringify(id.slice(0, 50))}`);
  }
  return {
    id: id.slice(1),
    parents: parents === '' ? [] : parents.split(' '),
    authorName,
    authorEmail,
    committedAt: Number(committedAt),
    message,
    files: withFiles ? { added: [], modified: [], removed: [] } : null,
  };
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
