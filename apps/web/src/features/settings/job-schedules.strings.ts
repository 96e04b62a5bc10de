/** 设置 → 后台任务. */
export const jobSchedulesText = {
  intro: '服务器定时执行的任务。多台服务器共用一个数据库时，每次只由其中一台执行。',
  refresh: '刷新',
  interval: '运行间隔',
  lastRun: '上次运行',
  nextRun: '下次运行',
  duration: '耗时',
  lastError: '上次错误',
  enabled: '启用',
  runNow: '立即运行',
  started: (title: string) => `已开始运行：${title}`,
  turnedOn: (title: string) => `已启用：${title}`,
  turnedOff: (title: string) => `已停用：${title}`,
  never: '从未运行',
  none: '无',
  running: '运行中',
  on: '已启用',
  off: '已停用',
  offNext: '已停用（到期不运行）',
  every: (text: string) => `每 ${text}`,
  empty: '暂无后台任务',
  emptyContent: '服务器启动后，定期清理、仓库轮询等任务会显示在这里。',
  loadFailed: '后台任务读取失败',
  retry: '重试',
};

/** 设置 → 后台任务 → 任务队列. */
export const jobQueueText = {
  title: '任务队列',
  intro: '消息推送、文件清理等后台任务的排队情况（与 /metrics 的数字相同）。',
  kind: '任务类型',
  pending: '等待中',
  running: '运行中',
  failed: '失败',
  oldest: '最早等待',
  empty: '队列中没有任务',
  loadFailed: '任务队列读取失败',
};

/** 5 分钟, 1 小时, 30 秒. */
export function intervalText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} 小时`;
  if (ms % 60_000 === 0) return `${ms / 60_000} 分钟`;
  return `${Math.round(ms / 1000)} 秒`;
}

/** 120 毫秒, 3.4 秒, 2 分 5 秒. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${ms} 毫秒`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} 秒`;
  return `${Math.floor(ms / 60_000)} 分 ${Math.round((ms % 60_000) / 1000)} 秒`;
}
