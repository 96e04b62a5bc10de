import type { FakeClock } from '../shared/clock.ts';
import type { FakeResponse } from '../shared/http-server.ts';
import type { SlidingWindowLimiter } from '../shared/rate-limiter.ts';
import type { WecomState } from './wecom-state.ts';

/** What every WeCom route file receives: explicit dependencies, no globals. */
export interface WecomContext {
  state: WecomState;
  clock: FakeClock;
  limiter: SlidingWindowLimiter;
  baseUrl(): string;
}

/** WeCom answers errors as HTTP 200 with `{errcode, errmsg}`. */
export function wecomFail(errcode: number, errmsg: string, extra: Record<string, unknown> = {}): FakeResponse {
  return {
    status: 200,
    body: {
      errcode,
      errmsg: `${errmsg}, hint: [${hint()}], from ip: 127.0.0.1, more info at https://open.work.weixin.qq.com/devtool/query?e=${errcode}`,
      ...extra,
    },
  };
}

export function wecomOk(fields: Record<string, unknown> = {}): FakeResponse {
  return { status: 200, body: { errcode: 0, errmsg: 'ok', ...fields } };
}

function hint(): string {
  return `${Math.floor(Date.now() / 1000)}-${Math.random().toString(16).slice(2, 10)}-${Math.random().toString(16).slice(2, 10)}`;
}
