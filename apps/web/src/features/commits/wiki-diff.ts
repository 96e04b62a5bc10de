import { diffLines as jsDiffLines } from 'diff';

export type DiffLine = { type: 'same' | 'add' | 'remove'; text: string };
/** One row of the side-by-side view: the line before (left) and after (right); null leaves that side blank. */
export interface DiffRow {
  left: DiffLine | null;
  right: DiffLine | null;
}

function linesOf(value: string): string[] {
  const lines = value.split('\n');
  // jsdiff keeps each line's newline: the last split part is empty unless the text ended without one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A line diff of the document before and after (jsdiff's Myers diff), in document order. */
export function diffLines(before: string, after: string): DiffLine[] {
  if (before === after) return before === '' ? [] : linesOf(before).map((text) => ({ type: 'same' as const, text }));
  // A last line without a newline is the same line as with one (documents have no "newline at end of file").
  const withEol = (t: string) => (t === '' || t.endsWith('\n') ? t : `${t}\n`);
  return jsDiffLines(withEol(before), withEol(after)).flatMap((change) => {
    if (change.value === '') return [];
    const type = change.added ? 'add' : change.removed ? 'remove' : 'same';
    return linesOf(change.value).map((text) => ({ type, text }) as DiffLine);
  });
}

/** Pairs removed and added runs row by row, so a changed line sits beside what it became. */
export function diffRows(lines: DiffLine[]): DiffRow[] {
  const rows: DiffRow[] = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i += 1)
      rows.push({ left: removed[i] ?? null, right: added[i] ?? null });
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.type === 'remove') removed.push(line);
    else if (line.type === 'add') added.push(line);
    else {
      flush();
      rows.push({ left: line, right: line });
    }
  }
  flush();
  return rows;
}
