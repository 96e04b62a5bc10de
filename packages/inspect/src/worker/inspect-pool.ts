import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PackageInspectionError } from '../inspection-error.ts';
import type { InspectPackageOptions } from '../package-inspector.ts';
import type { PackageInspection } from '../types.ts';
import type { InspectJob, InspectReply } from './inspect-messages.ts';

/**
 * Package inspection off the event loop: a few worker threads, each inspecting one package at a time. A package
 * that takes longer than `timeoutMs` has its worker terminated; one whose parse outgrows `maxHeapMb` ends its
 * worker (V8's resourceLimits). Either way the upload gets a clear message and a fresh worker takes the next
 * package, so a hostile package slows only itself.
 */
export interface InspectPoolOptions {
  /** Worker threads (INSPECT_WORKERS). */
  workers: number;
  /** Time one package may take once its worker has it (INSPECT_TIMEOUT_SEC). */
  timeoutMs: number;
  /** Old-generation heap of each worker, MB (INSPECT_MEMORY_MB). */
  maxHeapMb: number;
  /**
   * A worker left idle this long exits (its ~10–20 MiB go back; the next package starts a fresh one in ~0.1 s).
   * Default IDLE_WORKER_MS.
   */
  idleMs?: number;
}

/** How long an idle worker waits for another package before it exits. */
export const IDLE_WORKER_MS = 60_000;

export const DEFAULT_INSPECT_POOL: InspectPoolOptions = { workers: 2, timeoutMs: 120_000, maxHeapMb: 512 };

export interface InspectPool {
  inspect(filePath: string, options?: InspectPackageOptions): Promise<PackageInspection>;
  /**
   * Starts a worker now if none is idle or starting (and the pool has room), so a package about to arrive finds one
   * ready: called when an upload begins, its worker starts while the bytes are still coming. Left unused, it exits
   * after `idleMs` like any idle worker.
   */
  warm(): void;
  /** Worker threads alive now (idle, busy or starting). */
  liveWorkers(): number;
  /** Ends every worker; pending inspections fail. */
  close(): Promise<void>;
}

interface Pending {
  job: InspectJob;
  resolve: (inspection: PackageInspection) => void;
  reject: (error: unknown) => void;
}

/**
 * Where the worker lives: beside the bundle (dist/inspect-worker.mjs, built by scripts/build-server.mjs), or
 * as TypeScript beside this file, loaded through tsx as the sources are in development and tests.
 */
function workerEntry(): { url: URL; execArgv: string[] } {
  if (!import.meta.url.endsWith('.ts'))
    return { url: new URL('./inspect-worker.mjs', import.meta.url), execArgv: ['--enable-source-maps'] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { url: new URL('./inspect-worker.ts', import.meta.url), execArgv: ['--import', tsx] };
}

/** Buffers come back from a worker as plain Uint8Arrays. */
function revive(inspection: PackageInspection): PackageInspection {
  if ('icon' in inspection && inspection.icon) {
    const data = inspection.icon.data as Uint8Array;
    inspection.icon.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }
  return inspection;
}

export function createInspectPool(options: InspectPoolOptions = DEFAULT_INSPECT_POOL): InspectPool {
  const queue: Pending[] = [];
  /** Started and waiting for a package. */
  const idle: Worker[] = [];
  /** Inspecting a package. */
  const running = new Set<Worker>();
  /** Every live worker: idle, running, or still starting. */
  const workers = new Set<Worker>();
  /** The exit timer of each idle worker. */
  const idleTimers = new Map<Worker, NodeJS.Timeout>();
  const idleMs = options.idleMs ?? IDLE_WORKER_MS;
  let nextId = 1;
  let closed = false;

  const stopIdleTimer = (worker: Worker) => {
    clearTimeout(idleTimers.get(worker));
    idleTimers.delete(worker);
  };
  const forget = (worker: Worker) => {
    stopIdleTimer(worker);
    workers.delete(worker);
    running.delete(worker);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  };
  /** A worker with nothing to do: waits for the next package, and exits if none comes within idleMs. */
  const rest = (worker: Worker) => {
    idle.push(worker);
    const timer = setTimeout(() => {
      if (!idle.includes(worker)) return;
      forget(worker);
      void worker.terminate();
    }, idleMs);
    timer.unref();
    idleTimers.set(worker, timer);
  };
  const take = (): Worker => {
    const worker = idle.pop() as Worker;
    stopIdleTimer(worker);
    return worker;
  };

  function spawn(): void {
    const { url, execArgv } = workerEntry();
    const worker = new Worker(url, { execArgv, resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb } });
    workers.add(worker);
    worker.unref();
    let ready = false;
    const started = (reply: InspectReply) => {
      if (!('ready' in reply)) return;
      ready = true;
      worker.off('message', started);
      rest(worker);
      pump();
    };
    worker.on('message', started);
    // A worker that cannot start fails the package waiting for it rather than leaving it waiting.
    worker.once('error', (error) => {
      if (!ready) queue.shift()?.reject(error);
    });
    worker.once('exit', () => {
      forget(worker);
      pump();
    });
  }

  function pump(): void {
    if (closed) return;
    while (queue.length > 0 && idle.length > 0) run(take(), queue.shift() as Pending);
    let starting = workers.size - idle.length - running.size;
    for (; queue.length > starting && workers.size < options.workers; starting += 1) spawn();
  }

  function run(worker: Worker, pending: Pending): void {
    running.add(worker);
    worker.ref();
    let settled = false;
    const settle = (outcome: () => void, keepWorker: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      running.delete(worker);
      if (keepWorker) {
        worker.unref();
        rest(worker);
      } else {
        forget(worker);
        void worker.terminate();
      }
      outcome();
      pump();
    };
    const onMessage = (reply: InspectReply) => {
      if ('ready' in reply || reply.id !== pending.job.id) return;
      if ('inspection' in reply) settle(() => pending.resolve(revive(reply.inspection)), true);
      else if ('refusal' in reply)
        settle(() => pending.reject(new PackageInspectionError(reply.refusal.reason, reply.refusal.message)), true);
      else settle(() => pending.reject(new Error(`package inspection failed: ${reply.failure}`)), true);
    };
    const onError = (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      settle(() => pending.reject(outOfMemory ? new PackageInspectionError('inspectionMemory') : error), false);
    };
    const onExit = () => settle(() => pending.reject(new Error('package inspection worker exited')), false);
    const timer = setTimeout(() => {
      const seconds = Number((options.timeoutMs / 1000).toFixed(1));
      settle(
        () =>
          pending.reject(
            new PackageInspectionError(
              'inspectionTimeout',
              `安装包解析超时（超过 ${seconds} 秒），文件可能已损坏或结构异常`,
            ),
          ),
        false,
      );
    }, options.timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(pending.job);
  }

  return {
    inspect(filePath, inspectOptions = {}) {
      if (closed) return Promise.reject(new Error('the inspection pool is closed'));
      return new Promise<PackageInspection>((resolve, reject) => {
        queue.push({ job: { id: nextId++, filePath, options: inspectOptions }, resolve, reject });
        pump();
      });
    },
    warm() {
      if (closed || workers.size >= options.workers) return;
      const starting = workers.size - idle.length - running.size;
      if (idle.length + starting - queue.length <= 0) spawn();
    },
    liveWorkers: () => workers.size,
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error('the inspection pool is closed'));
      for (const worker of workers) stopIdleTimer(worker);
      await Promise.all([...workers].map((worker) => worker.terminate()));
      workers.clear();
      idle.length = 0;
    },
  };
}
