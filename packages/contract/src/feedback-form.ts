/**
 * Tester feedback from the install page (issue 20): limits and messages, free of zod so the install entry can import
 * them (`@release/contract/feedback-form`).
 */
export const FEEDBACK_PATH = '/api/app_version/feedback';
export const FEEDBACK_TEXT_MAX = 2000;
export const FEEDBACK_MAX_SCREENSHOTS = 5;
export const FEEDBACK_SCREENSHOT_MAX_MB = 10;
export const FEEDBACK_RECORDING_MAX_MB = 50;
/** Device model and OS version as the browser reports them. */
export const FEEDBACK_DEVICE_MAX = 64;

export const FeedbackMessages = {
  disabled: '该应用已关闭测试反馈，请直接联系应用负责人',
  textRequired: '请填写反馈内容',
  textTooLong: `反馈内容不能超过 ${FEEDBACK_TEXT_MAX} 字`,
  tooManyFiles: `最多上传 ${FEEDBACK_MAX_SCREENSHOTS} 张截图或 1 段录屏`,
  mixedFiles: `截图和录屏不能同时上传：请上传最多 ${FEEDBACK_MAX_SCREENSHOTS} 张截图，或 1 段录屏`,
  badFileType: '截图只能是图片（PNG、JPEG、GIF、WebP），录屏只能是视频（MP4、MOV、WebM）',
  screenshotTooLarge: `每张截图不能超过 ${FEEDBACK_SCREENSHOT_MAX_MB} MB`,
  recordingTooLarge: `录屏不能超过 ${FEEDBACK_RECORDING_MAX_MB} MB`,
  fieldsFirst: '参数错误：请先发送反馈内容，再发送截图或录屏',
  versionMissing: '该版本不存在或已被删除，请刷新安装页后再反馈',
  tooMany: (minutes: number) => `反馈提交过于频繁，请 ${minutes} 分钟后再试`,
  sent: '反馈已提交，感谢！开发同学会在缺陷列表中处理',
  /** The bell notice's text for the app's editors or the feedback's receivers. */
  notice: (summary: string) => `提交了测试反馈：${summary}`,
} as const;
