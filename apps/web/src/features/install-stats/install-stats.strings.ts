/** Chinese strings of the install statistics (issue 20): the counts on the 安装包 list, the chart, who has a build. */
export const statsText = {
  downloads: (n: number) => `${n} 次下载`,
  installs: (n: number) => `${n} 次安装`,
  noDownloads: '暂无下载',
  countsHint: '同一设备每天只计一次；点击查看谁装了这个版本',
  chartTitle: '近 30 天下载与安装',
  chartTotal: (downloads: number, installs: number) => `共 ${downloads} 次下载 · ${installs} 次安装`,
  chartDay: (day: string, downloads: number, installs: number) => `${day}：${downloads} 次下载，${installs} 次安装`,
  chartEmpty:
    '近 30 天还没有下载或安装。把安装页的链接或二维码发给测试者，他们从安装页下载或安装后，这里按天显示次数。',
  legendDownloads: '下载',
  legendInstalls: '安装',
  loadFailed: '读取安装统计失败',
  retry: '重试',
  holdersTitle: (version: string) => `谁装了 ${version}`,
  holdersUsers: '登录用户',
  holdersEmpty: '还没有登录用户下载或安装这个版本',
  holdersEmptyHint: '测试者登录后从安装页下载或安装，这里会列出他们的设备和时间；未登录的下载只计数，不列名。',
  holdersDevices: '设备分布',
  holdersNoDevices: '还没有设备下载或安装这个版本',
  deviceCount: (n: number) => `${n} 次`,
  loading: '正在读取…',
} as const;
