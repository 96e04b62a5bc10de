import type { SourceCommit } from '../source-commit.ts';

export type WebhookProvider = 'gitlab' | 'github' | 'gitea';

/** push = a branch moved (or was deleted), tag = a tag was pushed or deleted, ping = hook set-up check. */
export type WebhookKind = 'push' | 'tag' | 'ping' | 'ignored';

export interface WebhookTag {
  name: string;
  /** The tagged commit when the host says (GitLab checkout_sha, GitHub/Gitea head commit or after). */
  commitId: string | null;
  /** Annotation text (GitLab only sends it); null otherwise. */
  message: string | null;
}

export interface WebhookRepository {
  /** `group/project` (GitLab path_with_namespace, GitHub/Gitea full_name): the key to match a workflow. */
  fullName: string;
  webUrl: string | null;
  /** The clone URLs the host lists (https and ssh), to match a workflow's repoPath. */
  cloneUrls: string[];
}

export interface WebhookEvent {
  provider: WebhookProvider;
  kind: WebhookKind;
  /** The host's event name as sent (`Push Hook`, `push`, `delete`, ...). */
  event: string;
  /** X-GitHub-Delivery / Idempotency-Key or X-Gitlab-Event-UUID / X-Gitea-Delivery; null when absent. */
  deliveryId: string | null;
  ref: string | null;
  /** Short branch name for branch pushes; null for tags, pings and ignored events. */
  branch: string | null;
  tag: WebhookTag | null;
  before: string | null;
  after: string | null;
  /** Oldest → newest whatever the host's order; empty for deletions, tags and pings. */
  commits: SourceCommit[];
  deleted: boolean;
  created: boolean;
  /** Only GitHub flags force-pushes; GitLab and Gitea never do (false). */
  forced: boolean;
  /**
   * The host capped its list (GitLab keeps the newest 20, Gitea 5 by default, GitHub 2048): poll the mirror for
   * the full `before..after` range instead of trusting `commits`.
   */
  truncated: boolean;
  /** The host's true count when it sends one (GitLab total_commits_count, Gitea total_commits). */
  totalCommits: number | null;
  repository: WebhookRepository | null;
}

export interface WebhookRequest {
  /** Request headers; names are matched case-insensitively. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The exact bytes received: signatures are computed over them, never over re-serialised JSON. */
  rawBody: Buffer | string;
}

export interface WebhookOptions {
  /** The hook's configured secret (GitLab token / HMAC key); null explicitly disables verification. */
  secret: string | null;
}

export type WebhookErrorReason = 'bad_signature' | 'missing_signature' | 'bad_payload' | 'unsupported_event';

const messages: Record<WebhookErrorReason, string> = {
  bad_signature: 'Webhook 签名校验失败',
  missing_signature: 'Webhook 缺少签名或令牌',
  bad_payload: 'Webhook 请求内容无法解析',
  unsupported_event: '无法识别的 Webhook 事件类型',
};

/** A delivery to refuse: `reason` is stable for code, `message` is Chinese for people, `detail` for logs. */
export class WebhookError extends Error {
  readonly reason: WebhookErrorReason;
  readonly detail: string;

  constructor(reason: WebhookErrorReason, detail = '') {
    super(messages[reason]);
    this.name = 'WebhookError';
    this.reason = reason;
    this.detail = detail;
  }
}

/** First value of a header, looked up case-insensitively; empty strings count as absent. */
export function headerValue(headers: WebhookRequest['headers'], name: string): string | null {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    const first = typeof value === 'string' ? value : value[0];
    const trimmed = first?.trim() ?? '';
    return trimmed === '' ? null : trimmed;
  }
  return null;
}

/** The first present header of several (e.g. X-Gitea-Event, X-Forgejo-Event, X-Gogs-Event). */
export function firstHeader(headers: WebhookRequest['headers'], names: readonly string[]): string | null {
  for (const name of names) {
    const value = headerValue(headers, name);
    if (value !== null) return value;
  }
  return null;
}
