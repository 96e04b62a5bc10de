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

function parseAll(chunks: string[], withFiles = false): LogRecord[] {
  const parser = new LogRecordParser(withFiles);
  const records = chunks.flatMap((chunk) => parser.push(chunk));
  return [...records, ...parser.finish()];
}

// The same with FILES_ARGS: after a record, `\n` and status/path pairs; a commit that changed nothing has none.
const WITH_FILES = [
  `\u001e${A}\0${B} ${C}\0鲍勃\0bob@corp.test\x001714600050\0Merge branch 'dev'\n\0\nM\0src/a b.ts\0D\0旧.txt\0T\0link\0`,
  `\u001e${C}\0${B}\0Alice\0\x001714600030\0空提交\n\0`,
  `\u001e${B}\0\0Alice\0\x001714600010\0第一行\n\0\nA\0README.md\0A\0\u001e.txt\0`,
].join('');

describe('LogRecordParser', () => {
  it('parses records whatever the chunk boundaries', () => {
    const whole = parseAll([STREAM]);
    expect(whole).toEqual([
      {
        id: A,
        parents: [B, C],
        authorName: '鲍勃',
        authorEmail: 'bob@corp.test',
        committedAt: 1714600050,
        message: "Merge branch 'dev'\n",
        files: null,
      },
      {
        id: B,
        parents: [],
        authorName: 'Alice',
        authorEmail: '',
        committedAt: 1714600010,
        message: '第一行\n\n第二行\n',
        files: null,
      },
    ]);
    expect(parseAll([...STREAM])).toEqual(whole);
    expect(parseAll([STREAM.slice(0, 45), STREAM.slice(45, 46), STREAM.slice(46)])).toEqual(whole);
  });

  it("reads each record's files, whatever the chunk boundaries, and a file name that looks like a record start", () => {
    const whole = parseAll([WITH_FILES], true);
    expect(whole.map((record) => [record.id, record.message, record.files])).toEqual([
      [A, "Merge branch 'dev'\n", { added: [], modified: ['src/a b.ts', 'link'], removed: ['旧.txt'] }],
      [C, '空提交\n', { added: [], modified: [], removed: [] }],
      [B, '第一行\n', { added: ['README.md', '\u001e.txt'], modified: [], removed: [] }],
    ]);
    expect(parseAll([...WITH_FILES], true)).toEqual(whole);
    expect(parseAll([WITH_FILES.slice(0, 130), WITH_FILES.slice(130, 131), WITH_FILES.slice(131)], true)).toEqual(
      whole,
    );
  });

  it('refuses output that drifted or stopped inside a record', () => {
    expect(() => new LogRecordParser().push(`${A}\0\0x\0y\x001\0m\0`)).toThrow(GitError);
    const parser = new LogRecordParser();
    parser.push(STREAM.slice(0, 60));
    expect(() => parser.finish()).toThrow(GitError);
    const inFiles = new LogRecordParser(true);
    inFiles.push(WITH_FILES.slice(0, WITH_FILES.indexOf('旧.txt')));
    expect(() => inFiles.finish()).toThrow(GitError);
  });
});
