import { describe, expect, it } from 'vitest';
import { changelogText, parseCommitMetadata } from './commit-metadata.ts';

describe('commit metadata', () => {
  it('reads upload-log applications and their changelogs', () => {
    const text = JSON.stringify({
      applications: [
        {
          applicationId: 7,
          name: '消消乐',
          icon: '',
          changelogs: [{ id: 1, elementType: 'level', gameplay: 'main', categoryName: '关卡包', count: '3' }],
        },
      ],
    });
    expect(parseCommitMetadata(text)).toEqual({
      kind: 'upload',
      applications: [
        {
          applicationId: '7',
          name: '消消乐',
          icon: null,
          changelogs: [{ id: '1', elementType: 'level', gameplay: 'main', categoryName: '关卡包', count: 3 }],
        },
      ],
    });
  });

  it('reads wiki events and git file lists, and ignores the rest', () => {
    const wiki = parseCommitMetadata(
      JSON.stringify({
        event: 'drive.file.edit_v1',
        spaceName: '研发',
        objTitle: '周报',
        changeVisible: true,
        beforeContent: 'a',
        afterContent: 'b',
      }),
    );
    expect(wiki).toMatchObject({ kind: 'wiki', event: { objTitle: '周报', changeVisible: true, url: null } });
    expect(
      parseCommitMetadata(JSON.stringify({ files: { added: ['a.ts'], modified: [], removed: ['b.ts'] } })),
    ).toEqual({ kind: 'files', files: { added: ['a.ts'], modified: [], removed: ['b.ts'] } });
    expect(parseCommitMetadata(JSON.stringify({ files: { added: [] } }))).toBeNull();
    expect(parseCommitMetadata('not json')).toBeNull();
    expect(parseCommitMetadata(undefined)).toBeNull();
  });

  it('labels a changelog without a stray separator for a part it lacks', () => {
    const log = { id: '1', elementType: 'level', gameplay: 'main', categoryName: '第一章', count: 3 };
    expect(changelogText(log)).toBe('关卡 · 主玩法 · 第一章 × 3');
    expect(changelogText({ ...log, elementType: 'survey', gameplay: '', categoryName: '' })).toBe(
      '问卷 · 未知玩法 × 3',
    );
    expect(changelogText({ ...log, gameplay: 'boss', categoryName: '  ' })).toBe('关卡 · 未知玩法 × 3');
    expect(changelogText({ ...log, elementType: '', gameplay: 'side' })).toBe('副玩法 · 第一章 × 3');
  });
});
