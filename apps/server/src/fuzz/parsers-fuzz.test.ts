import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignNames } from './campaigns.ts';
import { formatReport, fuzzSeed, FuzzRunner } from './fuzz-runner.ts';

/**
 * The fuzz suite of issue 15 (docs/parsers.md, "The fuzz suite"): every parser of untrusted bytes gets the real
 * samples cut at each section boundary, seeded mutations of them and hand-made hostile inputs (deep, wide,
 * shared, cyclic, lying about sizes). Each input must be answered or refused with the parser's own error within
 * a generous bound (a hang ends the worker), within the worker's heap, and the process's RSS stays bounded.
 * Replay a run: SEED=<seed> npx vitest run --project unit apps/server/src/fuzz
 */
const SEED = fuzzSeed(20261127);
const LIMITS = { inputLimitMs: 20_000, heapMb: 384 };
/** Growth of this process's RSS (the worker's heap and sharp's native memory included) the whole suite may cause. */
const RSS_BOUND_MB = 1024;

describe(`fuzzing every parser (seed ${SEED})`, { timeout: 240_000 }, () => {
  const runner = new FuzzRunner(LIMITS);
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  beforeAll(() =>
    console.log(`fuzz seed ${SEED} (replay: SEED=${SEED} npx vitest run --project unit apps/server/src/fuzz)`),
  );
  afterAll(async () => {
    clearInterval(sampler);
    await runner.close();
  });

  it.each(campaignNames)('%s: every input answered or refused in time', async (name) => {
    const report = await runner.run(name, SEED);
    console.log(formatReport(report));
    expect(report.tried).toBeGreaterThan(50);
    expect(
      report.broken,
      `seed ${SEED}: ${report.broken.map((item) => `${item.label} → ${item.why}`).join('\n')}`,
    ).toEqual([]);
    expect(report.held).toBe(report.tried);
  });

  it('the runner itself counts a throw, a hang and a heap blow-up as not held, and goes on after each', async () => {
    const strict = new FuzzRunner({ inputLimitMs: 2000, heapMb: 64 });
    try {
      const report = await strict.run('self-check', SEED);
      expect(report.broken.map((item) => item.label)).toEqual([
        'throws a TypeError',
        'spins forever',
        'allocates without end',
      ]);
      expect(report.broken[1]?.why).toMatch(/still running after 2000 ms/);
      expect(report.broken[2]?.why).toMatch(/out of memory/);
      expect([report.tried, report.answered, report.refused]).toEqual([5, 1, 1]);
    } finally {
      await strict.close();
    }
  });

  it(`keeps the RSS within ${RSS_BOUND_MB} MB of where it started`, () => {
    const grown = (peak - baseline) / 1024 / 1024;
    console.log(`fuzz RSS: ${Math.round(baseline / 1024 / 1024)} MB at start, peak +${Math.round(grown)} MB`);
    expect(grown).toBeLessThan(RSS_BOUND_MB);
  });
});
