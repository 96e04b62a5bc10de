import type { FakeClock } from '../shared/clock.ts';
import type { RateLimit, SlidingWindowLimiter } from '../shared/rate-limiter.ts';
import type { BitableStore } from './bitable-state.ts';
import type { EventPusher } from './event-pusher.ts';
import type { LarkState } from './lark-state.ts';
import type { TaskStore } from './task-state.ts';

/** What every Lark route file receives: explicit dependencies, no globals. */
export interface LarkContext {
  state: LarkState;
  clock: FakeClock;
  limiter: SlidingWindowLimiter;
  /** Per-route limits in force (defaults from rate-limit.ts, overridable by tests). */
  rateLimits: Map<string, RateLimit>;
  events: EventPusher;
  /** Task v2 and Bitable in memory. */
  tasks: TaskStore;
  bitable: BitableStore;
  /** The fake's own base URL, once listening (for links in HTML pages). */
  baseUrl(): string;
}
