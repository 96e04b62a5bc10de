import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PackageInspectionError } from '../inspection-error.ts';
import { inspectPackage } from '../package-inspector.ts';
import { sampleHap, sampleHarmonyApp } from '../testing/hap-builder.ts';
import { heavyInfoPlistIpa } from '../testing/hostile/attacks.ts';
import { sampleAab, sampleApk, sampleIpa, sampleMacZip } from '../testing/sample-packages.ts';
import { createTempDir } from '../testing/temp-files.ts';
import { buildZip } from '../testing/zip-writer.ts';
import { createInspectPool, type InspectPool } from './inspect-pool.ts';

const temp = createTempDir();
afterAll(() => temp.cleanup());

async function refusalOf(promise: Promise<unknown>): Promise<PackageInspectionError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PackageInspectionError);
  return error as PackageInspectionError;
}

// Each test may start workers under tsx (~1-2 s each on a loaded machine) before its work begins.
describe('the inspection worker pool', { timeout: 60_000 }, () => {
  let pool: InspectPool;
  let heavy: string;
  beforeAll(() => {
    pool = createInspectPool({ workers: 2, timeoutMs: 60_000, maxHeapMb: 256 });
    // 300,000 keys: within every parser limit, ~1 s and ~60 MB of heap to read.
    heavy = temp.write('heavy.ipa', heavyInfoPlistIpa(300_000));
  });
  afterAll(() => pool.close());

  it('answers exactly what inspectPackage answers, for every kind of package', async () => {
    const files = {
      'demo.ipa': sampleIpa(),
      'demo.apk': sampleApk(),
      'demo.aab': sampleAab(),
      'demo.zip': sampleMacZip(),
      'site.zip': buildZip([{ name: 'dist/index.html', data: '<html><title>站点</title></html>' }]),
      'page.html': Buffer.from('<!doctype html><html><head><title>页面</title></head><body></body></html>'),
      'entry.hap': sampleHap(),
      'shared.hsp': sampleHap({ moduleName: 'shared', moduleType: 'shared' }),
      'packed.app': sampleHarmonyApp({ 'entry.hap': sampleHap() }),
    };
    for (const [name, bytes] of Object.entries(files)) {
      const path = temp.write(name, bytes);
      const inWorker = await pool.inspect(path, { declaredName: name });
      expect(inWorker, name).toEqual(await inspectPackage(path, { declaredName: name }));
      if ('icon' in inWorker && inWorker.icon) expect(Buffer.isBuffer(inWorker.icon.data), name).toBe(true);
    }
  });

  it("gives back the uploader's error with its reason and message", async () => {
    const path = temp.write('fake.ipa', sampleApk());
    const refusal = await refusalOf(pool.inspect(path, { declaredName: 'fake.ipa' }));
    expect([refusal.reason, refusal.message]).toEqual(['kindMismatch', '扩展名为.ipa但内容是Android安装包']);
  });

  it('keeps the event loop free while a package is being read', async () => {
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 5);
    try {
      const inspection = await pool.inspect(heavy, { declaredName: 'heavy.ipa' });
      expect(inspection.kind).toBe('ipa');
    } finally {
      clearInterval(ticker);
    }
    // Read on this thread, the same package would have let no timer fire until it was done.
    expect(ticks).toBeGreaterThan(3);
  });

  it('reads packages at a lower priority than the thread that answers requests (Linux: nice 10 on the worker threads only)', async () => {
    await pool.inspect(temp.write('nice.ipa', sampleIpa()));
    // /proc/self/task/<thread>/stat: the nice value is the 17th field after the command name's closing parenthesis.
    const niceOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    const threads = readdirSync('/proc/self/task').map((tid) =>
      niceOf(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')),
    );
    const own = niceOf(readFileSync('/proc/thread-self/stat', 'utf8'));
    expect(threads.filter((nice) => nice === Math.min(own + 10, 19)).length).toBeGreaterThanOrEqual(1);
    expect(threads.filter((nice) => nice === own).length).toBeGreaterThanOrEqual(1);
  });

  it('stops a package past its time limit with a clear message, and the next package is read by a fresh worker', async () => {
    // A budget a small package meets in a fresh worker on a loaded machine, and a package near three times the heavy
    // one, which no machine reads within it.
    const strict = createInspectPool({ workers: 1, timeoutMs: 1_500, maxHeapMb: 256 });
    const heavier = temp.write('heavier.ipa', heavyInfoPlistIpa(800_000));
    try {
      const refusal = await refusalOf(strict.inspect(heavier, { declaredName: 'heavier.ipa' }));
      expect([refusal.reason, refusal.message]).toEqual([
        'inspectionTimeout',
        '安装包解析超时（超过 1.5 秒），文件可能已损坏或结构异常',
      ]);
      const path = temp.write('next.ipa', sampleIpa());
      expect((await strict.inspect(path)).kind).toBe('ipa');
    } finally {
      await strict.close();
    }
  });

  it('refuses a package whose reading outgrows the heap limit, and carries on', async () => {
    const small = createInspectPool({ workers: 1, timeoutMs: 60_000, maxHeapMb: 16 });
    try {
      const refusal = await refusalOf(small.inspect(heavy, { declaredName: 'heavy.ipa' }));
      expect([refusal.reason, refusal.message]).toEqual([
        'inspectionMemory',
        '安装包解析所需内存过多，文件可能已损坏或结构异常',
      ]);
      const path = temp.write('after.apk', sampleApk());
      expect((await small.inspect(path)).kind).toBe('apk');
    } finally {
      await small.close();
    }
  });

  it('lets a worker left idle exit (its memory goes back), and starts a fresh one for the next package', async () => {
    const resting = createInspectPool({ workers: 2, timeoutMs: 60_000, maxHeapMb: 256, idleMs: 300 });
    try {
      const path = temp.write('rest.ipa', sampleIpa());
      expect((await resting.inspect(path)).kind).toBe('ipa');
      expect(resting.liveWorkers()).toBe(1);
      await vi.waitFor(() => expect(resting.liveWorkers()).toBe(0), { timeout: 20_000, interval: 50 });
      expect((await resting.inspect(path)).kind).toBe('ipa');
      expect(resting.liveWorkers()).toBe(1);
    } finally {
      await resting.close();
    }
  });

  it('starts a worker ahead of a package when warmed (an upload began), and reads the package with it', async () => {
    const warmed = createInspectPool({ workers: 2, timeoutMs: 60_000, maxHeapMb: 256, idleMs: 300 });
    try {
      warmed.warm();
      warmed.warm();
      expect(warmed.liveWorkers()).toBe(1);
      expect((await warmed.inspect(temp.write('warm.ipa', sampleIpa()))).kind).toBe('ipa');
      expect(warmed.liveWorkers()).toBe(1);
      // Unused, it goes like any idle worker.
      await vi.waitFor(() => expect(warmed.liveWorkers()).toBe(0), { timeout: 20_000, interval: 50 });
    } finally {
      await warmed.close();
    }
  });

  it('fails what is still waiting when closed', async () => {
    const closing = createInspectPool({ workers: 1, timeoutMs: 60_000, maxHeapMb: 256 });
    const first = expect(closing.inspect(heavy)).rejects.toThrow();
    const second = expect(closing.inspect(heavy)).rejects.toThrow('the inspection pool is closed');
    await closing.close();
    await first;
    await second;
  });
});
