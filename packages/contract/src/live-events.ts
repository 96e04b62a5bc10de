/** Live notifications (issue 20): the browser's stream of what changed, GET with the session token. */
export const LIVE_EVENTS_PATH = '/api/events';

/** Streams one user may hold at once (tabs); a sixth is refused with 429. */
export const MAX_LIVE_CONNECTIONS_PER_USER = 5;

/** What the stream says: a new version, new update items, a changed task or bug, a new bell notice. */
export const liveEventTypes = ['version', 'items', 'task', 'notice'] as const;
export type LiveEventType = (typeof liveEventTypes)[number];

export const LiveMessages = {
  tooMany: `实时通知连接过多（每个用户最多 ${MAX_LIVE_CONNECTIONS_PER_USER} 个），请关闭一些页面后重试`,
  unavailable: '实时通知暂时不可用，页面会每分钟自动刷新',
} as const;
