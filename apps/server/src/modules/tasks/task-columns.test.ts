import { describe, expect, it } from 'vitest';
import { peopleSetText, taskColumns } from './task-columns.ts';

describe('the JSON columns of tasks', () => {
  it('read attachments with defaults for what older rows lack, and write their keys in one order', () => {
    expect(taskColumns.attachFiles.decode('[{"fileName":"a.png","s3Key":"k1"}]')).toEqual([
      { s3Key: 'k1', fileName: 'a.png', fileToken: null },
    ]);
    // The sync's compare and set matches stored text: the same files always encode the same.
    expect(taskColumns.attachFiles.encode([{ fileToken: 't', fileName: 'a.png', s3Key: 'k1' }])).toBe(
      '[{"s3Key":"k1","fileName":"a.png","fileToken":"t"}]',
    );
  });

  it('read a damaged value as empty instead of failing the list', () => {
    expect(taskColumns.attachFiles.decode('[{"fileName":"a.png"}]')).toEqual([]);
    expect(taskColumns.attachFiles.decode('not json')).toEqual([]);
    expect(taskColumns.assigneeIds.decode('["3", 4]')).toEqual([]);
    expect(taskColumns.assigneeIds.decode('[3,4]')).toEqual([3, 4]);
  });

  it('compare people as a set: the same people in another order, or named twice, are no change', () => {
    expect(peopleSetText([4, 3, 4])).toBe(peopleSetText([3, 4]));
    expect(peopleSetText([3])).not.toBe(peopleSetText([3, 4]));
  });
});
