/** Chinese strings of 设置 → 存储 (issue 20). */
export const storageText = {
  intro: '现有版本的安装包占用的空间。删除版本或保留规则清理后，文件在后台删除，这里随之减少。',
  stores: { local: '本地磁盘', s3: 'S3 对象存储' },
  store: (name: string) => `存储位置：${name}`,
  refresh: '刷新',
  total: '安装包合计',
  builds: '版本数',
  perApp: '按应用',
  perPlatform: '按平台',
  largest: '最大的安装包',
  weeks: '每周增长（最近 12 周）',
  weekAdded: '新增',
  weekRemoved: '删除释放',
  weekOf: (date: string) => `${date} 起的一周`,
  app: '应用',
  size: '大小',
  share: '占比',
  version: '版本',
  uploaded: '上传时间',
  pinned: '保留',
  empty: '还没有安装包',
  emptyHint: '应用发布安装包后，这里会显示各应用和平台占用的空间。',
  loadFailed: '无法读取存储用量',
  retry: '重试',
  /** The default retention rule for apps without one. */
  defaultTitle: '新应用的默认保留规则',
  defaultIntro:
    '没有自己保留规则的应用（包括新建的应用）使用这个规则。每个平台最新的版本、标记“保留”的版本和关联到快照的版本始终保留。',
  save: '保存',
  saved: '默认保留规则已保存',
  defaultLoadFailed: '读取默认保留规则失败，请重试',
  /** Orphaned files. */
  orphansTitle: '孤立文件',
  orphansIntro:
    '安装包与附件目录中没有任何版本、进行中的上传或重签名使用的文件（例如上传中断或删除失败留下的）。检查只读取，不删除。',
  orphansCheck: '检查孤立文件',
  orphansChecking: '正在读取存储中的全部文件…',
  orphansNone: (scanned: number) => `已检查 ${scanned} 个文件，没有孤立文件`,
  orphansFound: (count: number, size: string, scanned: number) =>
    `已检查 ${scanned} 个文件，发现 ${count} 个孤立文件，共 ${size}`,
  orphansListed: (n: number) => `下面列出其中最大的 ${n} 个，删除也只针对它们。`,
  orphansRemove: '删除孤立文件',
  orphansConfirmTitle: '删除孤立文件',
  orphansConfirm: (count: number, size: string) =>
    `将删除 ${count} 个孤立文件，释放 ${size}。删除前会再检查一次，此时已被使用的文件会保留。删除后无法恢复。`,
  orphansConfirmOk: '删除',
  orphansRemoved: (count: number, size: string) => `已删除 ${count} 个孤立文件，释放 ${size}`,
} as const;
