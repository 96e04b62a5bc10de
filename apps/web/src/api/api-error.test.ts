import { describe, expect, it } from 'vitest';
import { ApiError, failureMessage } from './api-error.ts';

describe('the one toast of a silent call that failed', () => {
  it("shows the server's reason, or the network's, and the fallback only without one", () => {
    expect(failureMessage(new ApiError('business', '必须上传图片或视频类型的文件', 400), '上传失败')).toBe(
      '必须上传图片或视频类型的文件',
    );
    expect(failureMessage(new ApiError('network', '网络异常'), '上传失败')).toBe('网络异常');
    expect(failureMessage(new ApiError('business', '', 500), '上传失败')).toBe('上传失败');
    expect(failureMessage('not an error', '上传失败')).toBe('上传失败');
  });

  it('shows nothing when the client has already dealt with the failure', () => {
    for (const kind of ['expired', 'forbidden', 'canceled'] as const)
      expect(failureMessage(new ApiError(kind, 'x'), '上传失败')).toBeNull();
  });
});
