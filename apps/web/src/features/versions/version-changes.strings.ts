import { sourceOriginLabels } from '@release/contract';

/** Chinese strings of 变更: what changed between a build and the one before it (issue 19). */
export const changesText = {
  button: '变更',
  title: (version: string) => `变更 · ${version}`,
  since: (base: string) => `相对上一版本 ${base}`,
  sinceInstalled: (base: string) => `相对你上次下载的 ${base}`,
  sinceChosen: (base: string) => `相对 ${base}`,
  basePrevious: '与上一版本',
  baseLastInstall: '与我上次安装的版本',
  firstBuild: '这是该平台的第一个版本，没有可以比较的上一版本。',
  loading: '正在读取变更…',
  failed: '读取变更失败',
  retry: '重试',
  sources: '构建来源',
  origin: sourceOriginLabels,
  pending: '等待同步：该提交还没有拉取到服务器',
  commits: (n: number) => `${n} 个提交`,
  items: (n: number) => `${n} 条更新`,
  byTime: '按两次发布之间的时间',
  byTimeHint: '两个版本都没有记录构建所用的提交，按发布时间列出这段时间的提交。',
  diverged: (n: number) => `两次构建的提交历史已分叉：上一版本有 ${n} 个提交不在此版本中。`,
  noCommits: '两次构建之间没有新的提交。',
  more: (n: number) => `还有 ${n} 条未列出`,
  snapshots: '绑定的快照',
  empty: '两个版本之间没有记录到变化。',
  emptyHint: '发布时用 release-cli --commit（或 upload_app 的 commit）指定构建所用的提交，即可按提交历史列出变化。',
} as const;
