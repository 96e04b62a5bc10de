import { afterEach, describe, expect, it, vi } from 'vitest';
import { PartProgress, StallTimer } from './part-progress.ts';

describe('StallTimer', () => {
  afterEach(() => vi.useRealTimers());

  it('fires only after the full time without a touch, once', () => {
    vi.useFakeTimers();
    const onStall = vi.fn();
    const timer = new StallTimer(60_000, onStall);
    timer.touch();
    for (let i = 0; i < 10; i += 1) {
      vi.advanceTimersByTime(59_999);
      timer.touch();
    }
    expect(onStall).not.toHaveBeenCalled();
    expect(timer.stalled).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(onStall).toHaveBeenCalledTimes(1);
    expect(timer.stalled).toBe(true);
    timer.touch();
    vi.advanceTimersByTime(120_000);
    expect(onStall).toHaveBeenCalledTimes(1);
  });

  it('never fires once stopped', () => {
    vi.useFakeTimers();
    const onStall = vi.fn();
    const timer = new StallTimer(1000, onStall);
    timer.touch();
    timer.stop();
    vi.advanceTimersByTime(5000);
    expect(onStall).not.toHaveBeenCalled();
    expect(timer.stalled).toBe(false);
  });
});

describe('PartProgress', () => {
  const sizes = new Map([
    [1, 100],
    [2, 100],
    [3, 30],
  ]);
  const sizeOf = (partNo: number) => sizes.get(partNo) ?? 0;

  it('sums the bytes sent of every part, a confirmed part counting whole', () => {
    const progress = new PartProgress(sizeOf);
    expect(progress.total).toBe(0);
    expect(progress.sent(1, 40)).toBe(true);
    expect(progress.sent(2, 10)).toBe(true);
    expect(progress.total).toBe(50);
    progress.done(3);
    expect(progress.total).toBe(80);
    progress.done(1);
    expect(progress.total).toBe(140);
  });

  it('keeps the most seen of a retried part, never above its size', () => {
    const progress = new PartProgress(sizeOf);
    progress.sent(1, 70);
    expect(progress.sent(1, 20)).toBe(false);
    expect(progress.total).toBe(70);
    expect(progress.sent(1, 500)).toBe(true);
    expect(progress.total).toBe(100);
    progress.clear();
    expect(progress.total).toBe(0);
  });
});
