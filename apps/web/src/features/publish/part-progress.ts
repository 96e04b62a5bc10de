/**
 * The pure parts of sending one file's parts (SPEC §9): the per-part stall timer and the sum of bytes sent.
 * Framework-free, driven by the upload progress events of each part's PUT.
 */

/**
 * SPEC §9 "part upload timeout 60000 ms", read as a stall timeout: the part fails only when none of its
 * bytes moved for that long. `touch()` on start and on every upload progress event; `onStall` fires once.
 */
export class StallTimer {
  private readonly ms: number;
  private readonly onStall: () => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private fired = false;

  constructor(ms: number, onStall: () => void) {
    this.ms = ms;
    this.onStall = onStall;
  }

  /** Whether the countdown ran out (the part timed out). */
  get stalled(): boolean {
    return this.fired;
  }

  /** Starts the countdown again from the full time; nothing once stalled or stopped. */
  touch(): void {
    if (this.fired) return;
    this.stop();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fired = true;
      this.onStall();
    }, this.ms);
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * Bytes sent per part, each the most ever seen for it: a retried part starts its bytes over, but the
 * progress bar does not go back. A confirmed part counts its whole size.
 */
export class PartProgress {
  private readonly sizeOf: (partNo: number) => number;
  private readonly bytes = new Map<number, number>();

  constructor(sizeOf: (partNo: number) => number) {
    this.sizeOf = sizeOf;
  }

  /** Records `sent` bytes of a part; answers whether the total grew. */
  sent(partNo: number, sent: number): boolean {
    const next = Math.min(this.sizeOf(partNo), Math.max(0, sent));
    if (next <= (this.bytes.get(partNo) ?? 0)) return false;
    this.bytes.set(partNo, next);
    return true;
  }

  done(partNo: number): void {
    this.bytes.set(partNo, this.sizeOf(partNo));
  }

  /** The transfer starts over (new signed URLs). */
  clear(): void {
    this.bytes.clear();
  }

  get total(): number {
    let sum = 0;
    for (const bytes of this.bytes.values()) sum += bytes;
    return sum;
  }
}
