/**
 * The fakes' notion of time. Every expiry, rate-limit window and event retry reads `now()` and schedules
 * with `schedule()`, so a test can fast-forward with `advance(ms)` instead of sleeping.
 *
 * - `frozen: true` (tests): time stands still except through `advance`.
 * - `frozen: false` (demo CLI): wall-clock time plus whatever was advanced; timers also fire on their own.
 */
export interface FakeClockOptions {
  /** Start time in epoch ms (default: Date.now()). */
  start?: number;
  frozen?: boolean;
}

interface Timer {
  id: number;
  due: number;
  run: () => unknown;
  handle?: NodeJS.Timeout;
}

export class FakeClock {
  private frozenAt: number | null;
  private offset = 0;
  private timers: Timer[] = [];
  private nextId = 1;

  constructor(options: FakeClockOptions = {}) {
    const start = options.start ?? Date.now();
    this.frozenAt = options.frozen ? start : null;
    if (!options.frozen) this.offset = start - Date.now();
  }

  now(): number {
    return this.frozenAt ?? Date.now() + this.offset;
  }

  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  get isFrozen(): boolean {
    return this.frozenAt !== null;
  }

  /** Runs `run` once `ms` of fake time have passed; returns an id for `cancel`. */
  schedule(ms: number, run: () => unknown): number {
    const timer: Timer = { id: this.nextId++, due: this.now() + ms, run };
    if (this.frozenAt === null) {
      timer.handle = setTimeout(() => void this.fire(timer), Math.max(0, ms));
      timer.handle.unref();
    }
    this.timers.push(timer);
    return timer.id;
  }

  cancel(id: number): void {
    const timer = this.timers.find((t) => t.id === id);
    if (timer?.handle) clearTimeout(timer.handle);
    this.timers = this.timers.filter((t) => t.id !== id);
  }

  /** Timers not yet fired, soonest first (for assertions such as "a retry is pending in 15 s"). */
  pending(): Array<{ id: number; inMs: number }> {
    const now = this.now();
    return [...this.timers].sort((a, b) => a.due - b.due).map((t) => ({ id: t.id, inMs: t.due - now }));
  }

  /** Moves time forward and runs, in order, every timer that falls due, awaiting what they return. */
  async advance(ms: number): Promise<void> {
    if (ms < 0) throw new RangeError('cannot move the clock backwards');
    const target = this.now() + ms;
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.due - b.due)[0];
      if (!next || next.due > target) break;
      this.moveTo(next.due);
      await this.fire(next);
    }
    this.moveTo(target);
  }

  /** Cancels every pending timer (used by reset and close). */
  clearTimers(): void {
    for (const t of this.timers) if (t.handle) clearTimeout(t.handle);
    this.timers = [];
  }

  private moveTo(time: number): void {
    if (this.frozenAt !== null) this.frozenAt = Math.max(this.frozenAt, time);
    else this.offset += Math.max(0, time - this.now());
  }

  private async fire(timer: Timer): Promise<void> {
    if (!this.timers.includes(timer)) return;
    this.timers = this.timers.filter((t) => t !== timer);
    if (timer.handle) clearTimeout(timer.handle);
    await timer.run();
  }
}
