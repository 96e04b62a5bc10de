import { MessagingMessages, type ReceiverKind } from '@release/contract';
import { AppError } from '../http/app-error.ts';

/** Where robot webhooks may point: the configured Lark open host and WeCom API host, nothing else. */
export interface RobotHosts {
  larkOpenBaseUrl: string;
  wecomBaseUrl: string;
}

export const DEFAULT_ROBOT_HOSTS: RobotHosts = {
  larkOpenBaseUrl: 'https://open.feishu.cn',
  wecomBaseUrl: 'https://qyapi.weixin.qq.com',
};

export interface RobotDestination {
  kind: Extract<ReceiverKind, 'lark-bot' | 'wecom-robot'>;
  /** The URL rebuilt from its checked parts (never the string as typed). */
  url: string;
  /** Shown in the delivery log: the credential reduced to its first and last characters. */
  masked: string;
}

const LARK_HOOK = /^\/open-apis\/bot\/v2\/hook\/([A-Za-z0-9_-]{1,128})$/;
const WECOM_PATH = '/cgi-bin/webhook/send';
const WECOM_KEY = /^[A-Za-z0-9_-]{1,128}$/;

function mask(secret: string): string {
  return secret.length <= 8 ? '****' : `${secret.slice(0, 4)}****${secret.slice(-4)}`;
}

function originOf(base: string): string {
  return new URL(base).origin;
}

/**
 * A robot webhook we may call, or null. Same origin exactly (scheme, host and port of the configured base),
 * the robot path and nothing more: no user info, no fragment, no other query than WeCom's key — so a saved
 * address can never make the server call an arbitrary or private host (SSRF).
 */
export function parseRobotUrl(raw: string, hosts: RobotHosts): RobotDestination | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.username || url.password || url.hash) return null;
  if (url.origin === originOf(hosts.larkOpenBaseUrl)) {
    const hook = LARK_HOOK.exec(url.pathname);
    if (!hook?.[1] || url.search) return null;
    return {
      kind: 'lark-bot',
      url: `${url.origin}/open-apis/bot/v2/hook/${hook[1]}`,
      masked: `${url.origin}/open-apis/bot/v2/hook/${mask(hook[1])}`,
    };
  }
  if (url.origin === originOf(hosts.wecomBaseUrl)) {
    const key = url.searchParams.get('key');
    const onlyKey =
      [...url.searchParams.keys()].every((k) => k === 'key') && url.searchParams.getAll('key').length === 1;
    if (url.pathname !== WECOM_PATH || !key || !onlyKey || !WECOM_KEY.test(key)) return null;
    return {
      kind: 'wecom-robot',
      url: `${url.origin}${WECOM_PATH}?key=${key}`,
      masked: `${url.origin}${WECOM_PATH}?key=${mask(key)}`,
    };
  }
  return null;
}

/** Save-time check of a workflow's robotUrl or an app's group webhook; empty values pass (nothing to call). */
export function assertRobotUrl(raw: string | null | undefined, hosts: RobotHosts, field?: string): void {
  if (!raw) return;
  if (!parseRobotUrl(raw, hosts))
    throw AppError.badRequest(
      field ? `${field}：${MessagingMessages.robotUrlInvalid}` : MessagingMessages.robotUrlInvalid,
    );
}
