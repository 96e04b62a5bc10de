import { describe, expect, it } from 'vitest';
import { GitError } from './git-command.ts';
import { LogRecordParser, type LogRecord } from './git-log-parser.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
// What `git log -z` prints for LOG_FORMAT: NUL between fields, NUL after each record.
const STREAM = [
  `\u001e${A}\0${B} ${C}\0鲍勃\0bob@corp.test\x001714600050\0Merge branch 'dev'\n\0`,
  `\u001e${B}\0\0Alice\0\x001714600010\0第一行\n\n第二行\n\0`,
].join('');

function parseAll(chunks: string[]): LogRecord[] {
  const parser = new LogRecordParser();
  const records = chunks.flatMap((chunk) => parser.push(chunk));
  parser.finish();
  return records;
}

describe('LogRecordParser', () => {
  it('parses records whatever the chunk boundaries', () => {
    const whole = parseAll([STREAM]);
    expect(whole).toEqual([
      { id: A, parents: [B, C], authorName: '鲍勃', authorEmail: 'bob@corp.test', committedAt: 1714600050, message: "Merge branch 'dev'\n" },
      { id: B, parents: [], authorName: 'Alice', authorEmail: '', committedAt: 1714600010, message: '第一行\n\n第二行\n' },
    ]);
    expect(parseAll([...STREAM])).toEqual(whole);
    expect(parseAll([STREAM.slice(0, 45), STREAM.slice(45, 46), STREAM.slice(46)])).toEqual(whole);
  });

  it('refuses output that drifted or stopped inside a record', () => {
    expect(() => new LogRecordParser().push(`${A}\0\0x\0y\x001\0m\0`)).toThrow(GitError);
    const parser = new LogRecordParser();
    parser.push(STREAM.slice(0, 60));
    expect(() => parser.finish()).toThrow(GitError);
  });
});
