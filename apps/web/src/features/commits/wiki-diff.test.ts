import { describe, expect, it } from 'vitest';
import { diffLines, diffRows } from './wiki-diff.ts';

describe('wiki diff', () => {
  it('diffs lines', () => {
    expect(diffLines('a\nb\nc', 'a\nc\nd')).toEqual([
      { type: 'same', text: 'a' },
      { type: 'remove', text: 'b' },
      { type: 'same', text: 'c' },
      { type: 'add', text: 'd' },
    ]);
    expect(diffLines('', 'x')).toEqual([{ type: 'add', text: 'x' }]);
    expect(diffLines('same\n', 'same\n')).toEqual([{ type: 'same', text: 'same' }]);
  });

  it('puts a changed line beside what it became', () => {
    const rows = diffRows(diffLines('第一步：打包\n第二步：上传', '第一步：打包\n第二步：签名\n第三步：上传'));
    expect(rows.map((r) => [r.left?.text ?? null, r.right?.text ?? null])).toEqual([
      ['第一步：打包', '第一步：打包'],
      ['第二步：上传', '第二步：签名'],
      [null, '第三步：上传'],
    ]);
  });
});
