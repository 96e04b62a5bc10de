import { MessagingMessages } from '@release/contract';

/** Chinese strings of the send-notification and send-logs modals and the delivery log (SPEC §2, §4, §8). */
export const messagingText = {
  /** SPEC §8 success toast: message pushed to the team messaging tool. */
  pushed: MessagingMessages.pushed,
  failed: (reason: string) => `推送失败：${reason}`,
  queued: '消息已加入发送队列，稍后自动重试',
  skipped: (names: string[]) => `${names.join('、')} 未绑定飞书账号，未发送给${names.length > 1 ? '他们' : 'TA'}`,
  noEndPoint: MessagingMessages.noEndPoint,
  ok: '确定',
  cancel: '取消',
  send: {
    title: '发送通知',
    receiver: '发送给',
    preview: '内容预览',
    scopes: {
      commit: '工作流群机器人',
      chatDev: '测试群',
      chatProd: '正式群（发布群）',
      self: '发给自己（飞书）',
      viewApp: '应用查看者（飞书）',
      subscribe: '订阅者（飞书）',
      userIds: '指定用户（飞书）',
    },
    chooseUsers: '请选择接收人',
    /** Beside 工作流群机器人 when the workflow has none (the option is disabled). */
    robotMissing: '（未设置，可在“编辑工作流 → 机器人地址”中填写）',
    adminOnly: '仅管理员',
  },
  logs: {
    title: '批量发送通知',
    modes: { day: '今日日志', custom: '自定义' },
    start: '起始日志',
    end: '截止日志',
    endPlaceholder: '请选择截止日志',
    noLaterCommits: '起始日志之后没有更新记录',
    empty: '所选范围内没有可推送的日志',
    more: (n: number) => `…还有 ${n} 条`,
    total: (n: number) => `共 ${n} 条`,
  },
  log: {
    title: '推送记录',
    columns: {
      time: '时间',
      app: '应用',
      title: '内容',
      target: '接收方',
      status: '状态',
      reply: '接收方返回',
      attempts: '尝试次数',
      by: '发起人',
      action: '操作',
    },
    status: { pending: '待发送', sent: '已发送', failed: '失败' } as Record<'pending' | 'sent' | 'failed', string>,
    allStatus: '全部状态',
    kinds: { 'lark-bot': '飞书机器人', 'lark-im': '飞书消息', 'wecom-robot': '企业微信机器人' } as Record<
      'lark-bot' | 'lark-im' | 'wecom-robot',
      string
    >,
    auto: '自动推送',
    retry: '重试',
    retried: '已重新加入发送队列',
    refresh: '刷新',
    empty: '还没有推送记录',
    emptyContent: '在更新记录的菜单中选择“发送通知”，或为工作流开启自动推送后，每次推送和接收方的返回都会记录在这里。',
    emptyFiltered: '没有该状态的推送记录',
    emptyFilteredContent: '选择“全部状态”查看全部推送记录',
  },
} as const;
