import { describe, expect, it } from 'vitest';
import { parseCommitMetadata } from './commit-metadata.ts';

describe('commit metadata', () => {
  it('reads upload-log applications and their changelogs', () => {
    const text = JSON.stringify({ applications: [{ applicationId: 7, name: '消消乐', icon: '', changelogs: [{ id: 1, elementType: 'level', gameplay: 'main', categoryName: '关卡包', count: '3' }] }] });
    expect(parseCommitMetadata(text)).toEqual({
      kind: 'upload',
      applications: [{ applicationId: '7', name: '消消乐', icon: null, changelogs: [{ id: '1', elementType: 'level', gameplay: 'main', categoryName: '关卡包', count: 3 }] }],
    });
  });

  it('reads wiki events and git file lists, and ignores the rest', () => {
    const wiki = parseCommitMetadata(JSON.stringify({ event: 'drive.file.edit_v1', spaceName: '研发', objTitle: '周报', changeVisible: true, beforeContent: 'a', afterContent: 'b' }));
    expect(wiki).toMatchObject({ kind: 'wiki', event: { objTitle: '周报', changeVisible: true, url: null } });
    expect(parseCommitMetadata(JSON.stringify({ files: { added: ['a.ts'], modified: [], removed: ['b.ts'] } }))).toEqual({ kind: 'files', files: { added: ['a.ts'], modified: [], removed: ['b.ts'] } });
    expect(parseCommitMetadata(JSON.stringify({ files: { added: [] } }))).toBeNull();
    expect(parseCommitMetadata('not json')).toBeNull();
    expect(parseCommitMetadata(undefined)).toBeNull();
  });
});
