import {
  FEEDBACK_MAX_SCREENSHOTS,
  FEEDBACK_RECORDING_MAX_MB,
  FEEDBACK_SCREENSHOT_MAX_MB,
} from '@release/contract/feedback-form';

/** The feedback form's words, the same on the install page and in the console. */
export const feedbackText = {
  title: '反馈问题',
  about: (build: string) => `反馈将提交给开发同学，并注明你正在使用的版本 ${build} 和设备信息。`,
  placeholder: '遇到了什么问题？怎么操作会出现？',
  files: '截图或录屏',
  filesHint: `最多 ${FEEDBACK_MAX_SCREENSHOTS} 张截图（每张 ≤ ${FEEDBACK_SCREENSHOT_MAX_MB} MB）或 1 段录屏（≤ ${FEEDBACK_RECORDING_MAX_MB} MB）`,
  choose: '添加截图或录屏',
  remove: '移除',
  device: '设备',
  deviceGuessed: '由浏览器信息推断',
  send: '提交反馈',
  cancel: '取消',
  again: '再提交一条',
  close: '完成',
  uploading: (percent: number) => `正在上传 ${percent}%`,
} as const;

/** The app's feedback setting, edited by its editors on the app page. */
export const feedbackSettingsText = {
  label: '测试反馈',
  on: '已开启',
  off: '已关闭',
  assignedTo: (names: string) => `指派给 ${names}`,
  unassigned: '不指派，通知编辑者',
  edit: '设置',
  title: '测试反馈设置',
  enabled: '接收测试反馈',
  enabledHint: '关闭后，安装页和控制台都不再接收测试反馈。',
  assignees: '反馈缺陷指派给',
  assigneesHint: '为空时不指派，由该应用的编辑者收到通知。',
  assigneesPlaceholder: '选择指派人',
  readFailed: '读取测试反馈设置失败',
} as const;
