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
}

const RECORD_START = '\u001e';
const FIELD_COUNT = 6;

/**
 * Format for `git log -z`: fields separated by NUL, each record terminated by NUL (from -z) and opened by a
 * record-separator byte, so the token stream can be checked for drift. %B is the raw message.
 */
export const LOG_FORMAT = '--format=%x1e%H%x00%P%x00%an%x00%ae%x00%ct%x00%B';

/**
 * Incremental parser: feed it text chunks in order, it returns the records completed by each chunk.
 * Only the unfinished tail of the stream is buffered, so memory does not grow with the history.
 */
export class LogRecordParser {
  private buffer = '';
  private fields: string[] = [];

  push(chunk: string): LogRecord[] {
    this.buffer += chunk;
    const records: LogRecord[] = [];
    let start = 0;
    for (let end = this.buffer.indexOf('\0', start); end !== -1; end = this.buffer.indexOf('\0', start)) {
      this.fields.push(this.buffer.slice(start, end));
      start = end + 1;
      if (this.fields.length === FIELD_COUNT) {
        records.push(toRecord(this.fields));
        this.fields = [];
      }
    }
    this.buffer = this.buffer.slice(start);
    return records;
  }

  /** Call after the last chunk: throws when the stream stopped inside a record. */
  finish(): void {
    if (this.buffer.trim() !== '' || this.fields.length > 0) throw new GitError('bad_output', 'git log output ended inside a record');
  }
}

function toRecord(fields: string[]): LogRecord {
  const [head = '', parents = '', authorName = '', authorEmail = '', committedAt = '', message = ''] = fields;
  // Between records git prints the -z terminator's newline; the record itself starts at the separator.
  const id = head.startsWith('\n') ? head.slice(1) : head;
  if (!id.startsWith(RECORD_START) || !/^[0-9a-f]{40,64}$/.test(id.slice(1))) {
    throw new GitError('bad_output', `unexpected git log record start ${JSON.stringify(head.slice(0, 50))}`);
  }
  return {
    id: id.slice(1),
    parents: parents === '' ? [] : parents.split(' '),
    authorName,
    authorEmail,
    committedAt: Number(committedAt),
    message,
  };
}
