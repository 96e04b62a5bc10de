import { describe, expect, it } from 'vitest';
import { createTaskBody, taskFormProblem, TaskMessages } from './tasks.ts';

describe('the task form (SPEC §5)', () => {
  const complete = { recordType: 'task' as const, summary: '登录页', assigneeIds: [1], startAt: 1000, due: 2000 };

  it("names the first missing field with the form's own message", () => {
    expect(taskFormProblem(complete)).toBeNull();
    expect(taskFormProblem({ ...complete, summary: '  ', assigneeIds: [] })).toBe('请输入!');
    expect(taskFormProblem({ ...complete, assigneeIds: [] })).toBe('请选择负责人!');
    expect(taskFormProblem({ ...complete, recordType: 'bug', assigneeIds: [] })).toBe('请选择指派给!');
    expect(taskFormProblem({ ...complete, startAt: null })).toBe('请选择开始和结束时间!');
    expect(taskFormProblem({ ...complete, due: undefined })).toBe('请选择开始和结束时间!');
    expect(taskFormProblem({ ...complete, due: 999 })).toBe(TaskMessages.timeRangeOrder);
    // A zero-length range (start = end) is a range.
    expect(taskFormProblem({ ...complete, due: 1000 })).toBeNull();
  });

  it('takes a clientToken of letters, digits, - and _ only', () => {
    const base = { appId: 1, recordType: 'task' };
    expect(createTaskBody.safeParse({ ...base, clientToken: '6f1c2a9e-3b7d-4c55-9d0e-1a2b3c4d5e6f' }).success).toBe(
      true,
    );
    expect(createTaskBody.safeParse({ ...base, clientToken: 'short' }).success).toBe(false);
    expect(createTaskBody.safeParse({ ...base, clientToken: 'has space in it' }).success).toBe(false);
  });
});
