import type { FakeClock } from './clock.ts';

export interface RateLimit {
  perSecond?: number;
  perMinute?: number;
  /** Once a limit is hit, refuse everything for this long (WeCom robots: 60 s). */
  blockMs?: number;
}

export type RateDecision =
  | { allowed: true; limit: number }
  | { allowed: false; limit: number; resetSeconds: number; window: 'second' | 'minute' | 'blocked' };

/** Rolling windows over the fake clock: a request counts against the last 1 s and the last 60 s. */
export class SlidingWindowLimiter {
  private hits = new Map<string, number[]>();
  private blockedUntil = new Map<string, number>();

  constructor(private readonly clock: FakeClock) {}

  /** Checks the key against the limit and, when allowed, counts the request. */
  hit(key: string, limit: RateLimit): RateDecision {
    const now = this.clock.now();
    const headline = limit.perMinute ?? limit.perSecond ?? Number.POSITIVE_INFINITY;
    const blocked = this.blockedUntil.get(key);
    if (blocked !== undefined && blocked > now) {
      return { allowed: false, limit: headline, resetSeconds: Math.ceil((blocked - now) / 1000), window: 'blocked' };
    }
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - 60_000);
    const windows: Array<['second' | 'minute', number | undefined, number]> = [
      ['second', limit.perSecond, 1000],
      ['minute', limit.perMinute, 60_000],
    ];
    for (const [window, max, span] of windows) {
      if (max === undefined) continue;
      const inWindow = recent.filter((t) => t > now - span);
      if (inWindow.length >= max) {
        this.hits.set(key, recent);
        if (limit.blockMs) {
          this.blockedUntil.set(key, now + limit.blockMs);
          return { allowed: false, limit: max, resetSeconds: Math.ceil(limit.blockMs / 1000), window: 'blocked' };
        }
        const oldest = inWindow[inWindow.length - max] ?? now;
        return {
          allowed: false,
          limit: max,
          resetSeconds: Math.max(1, Math.ceil((oldest + span - now) / 1000)),
          window,
        };
      }
    }
    recent.push(now);
    this.hits.set(key, recent);
    return { allowed: true, limit: headline };
  }

  reset(): void {
    this.hits.clear();
    this.blockedUntil.clear();
  }
}
