import { describe, expect, it } from 'vitest';
import { createProgress, formatBytes, renderBar } from './progress.ts';

function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { stream: { isTTY, write: (text: string) => writes.push(text) }, writes };
}

describe('upload progress', () => {
  it('prints one plain line per 10 % step when not on a terminal (CI logs)', () => {
    const { stream, writes } = sink(false);
    const progress = createProgress(stream, 'app.apk');
    for (let loaded = 0; loaded <= 1000; loaded += 7) progress.update(loaded, 1000);
    progress.finish();
    expect(writes.map((w) => w.trim().split(' (')[0])).toEqual(
      [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((p) => `app.apk: ${p}%`),
    );
  });

  it('redraws one bar on a terminal, at most every 100 ms until the end', () => {
    const { stream, writes } = sink(true);
    let now = 0;
    const progress = createProgress(stream, 'app.apk', () => now);
    progress.update(10, 100);
    now = 50;
    progress.update(20, 100);
    now = 150;
    progress.update(60, 100);
    progress.update(100, 100);
    progress.finish();
    expect(writes.filter((w) => w.startsWith('\r'))).toHaveLength(4);
    expect(writes.at(-2)).toContain(renderBar('app.apk', 100, 100));
    expect(writes.at(-1)).toBe('\n');
  });

  it('draws bars and sizes people can read', () => {
    expect(renderBar('x', 45, 100)).toBe(`x [${'#'.repeat(14)}${'-'.repeat(16)}]  45%  45 B / 100 B`);
    expect([formatBytes(512), formatBytes(5 * 1024 * 1024), formatBytes(3 * 1024 ** 3)]).toEqual([
      '512 B',
      '5.0 MB',
      '3.00 GB',
    ]);
  });
});
