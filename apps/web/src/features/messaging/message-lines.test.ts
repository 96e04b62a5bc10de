import { describe, expect, it } from 'vitest';
import { clipText, type CommitLogItem } from '@release/contract';
import { sentLine } from './message-lines.ts';

function item(commitMessage: string, remark = '张三'): CommitLogItem {
  return {
    id: 1,
    commitId: 'dcb0c2d9f00d',
    commitMessage,
    remark,
    nativePackageType: null,
    uploadBy: null,
  } as CommitLogItem;
}

describe('a previewed line is what the push sends', () => {
  it('cuts a subject of 1,000 characters to 200 with …, as the server does, and keeps a short one whole', () => {
    const long = `feat: 超长提交信息 ${'这是一段很长的说明文字。'.repeat(80)}`;
    const line = sentLine(item(long));
    expect(Array.from(line.subject)).toHaveLength(200);
    expect(line.subject.endsWith('…')).toBe(true);
    expect(line.subject.startsWith('超长提交信息 这是一段很长的说明文字。')).toBe(true);
    expect(line).toMatchObject({ shortId: 'dcb0c2d', typeLabel: '新增/变更' });
    expect(sentLine(item('fix: 修复启动崩溃\n\n低内存机型'))).toEqual({
      shortId: 'dcb0c2d',
      typeLabel: 'Bug修改',
      subject: '修复启动崩溃',
      author: '张三',
    });
  });

  it('names the committer, cut to 32 characters, or 未知 without one', () => {
    expect(sentLine(item('docs: 说明', '')).author).toBe('未知');
    expect(Array.from(sentLine(item('docs: 说明', '名'.repeat(40))).author)).toHaveLength(32);
    expect(clipText('😀'.repeat(3), 2)).toBe('😀…');
  });
});
