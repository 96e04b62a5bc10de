import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FuzzJob, FuzzReply } from './fuzz-messages.ts';

/**
 * The test's side of the fuzz suite: sends campaigns to a worker thread and watches it. An input the worker is
 * still on after `inputLimitMs` is a hang: the worker is terminated, the input counted as not held, and a fresh
 * worker goes on with the next input. A worker that runs out of its heap (`heapMb`) counts the same way.
 */
export interface FuzzLimits {
  /** How long one input may take: generous, to catch a hang, not to time the parser. */
  inputLimitMs: number;
  /** The worker's old-generation heap, MB. */
  heapMb: number;
}

export interface CampaignReport {
  name: string;
  tried: number;
  held: number;
  answered: number;
  refused: number;
  /** Inputs not held: label and what happened. */
  broken: Array<{ label: string; why: string }>;
  /** The slowest input (building it included): for the log, never asserted. */
  slowest: { label: string; ms: number };
}

/** The seed of this run: SEED from the environment to replay one, else a fixed one so CI runs the same inputs. */
export function fuzzSeed(fallback: number): number {
  const given = process.env.SEED;
  if (given === undefined || given === '') return fallback;
  const seed = Number(given);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`SEED must be a non-negative integer, got ${given}`);
  return seed >>> 0;
}

function startWorker(heapMb: number): Worker {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return new Worker(new URL('./fuzz-worker.ts', import.meta.url), {
    execArgv: ['--import', tsx],
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  });
}

export class FuzzRunner {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;

  constructor(private readonly limits: FuzzLimits) {}

  private spawn(): { worker: Worker; ready: Promise<void> } {
    if (this.worker && this.ready) return { worker: this.worker, ready: this.ready };
    const worker = startWorker(this.limits.heapMb);
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (reply: FuzzReply) => {
        if ('ready' in reply) {
          worker.off('message', onMessage);
          resolve();
        }
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    this.worker = worker;
    this.ready = ready;
    return { worker, ready };
  }

  private async drop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    await worker?.terminate();
  }

  /** Runs every input of `campaign`; resolves with the figures, never rejects for a parser's fault. */
  async run(campaign: string, seed: number): Promise<CampaignReport> {
    const report: CampaignReport = {
      name: campaign,
      tried: 0,
      held: 0,
      answered: 0,
      refused: 0,
      broken: [],
      slowest: { label: '', ms: 0 },
    };
    let labels: string[] = [];
    let from = 0;
    for (;;) {
      const { worker, ready } = this.spawn();
      await ready;
      const ended = await new Promise<{ done: true } | { lost: string }>((resolve) => {
        let timer: NodeJS.Timeout;
        const watch = () => {
          clearTimeout(timer);
          timer = setTimeout(
            () => finish({ lost: `still running after ${this.limits.inputLimitMs} ms` }),
            this.limits.inputLimitMs,
          );
        };
        const finish = (outcome: { done: true } | { lost: string }) => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          resolve(outcome);
        };
        const onMessage = (reply: FuzzReply) => {
          watch();
          if ('labels' in reply) labels = reply.labels;
          else if ('end' in reply) finish({ done: true });
          else if ('index' in reply) {
            from = reply.index + 1;
            report.tried += 1;
            if (reply.ms >= report.slowest.ms) report.slowest = { label: labels[reply.index] ?? '', ms: reply.ms };
            if (reply.outcome === 'broke')
              report.broken.push({ label: labels[reply.index] ?? `#${reply.index}`, why: reply.detail });
            else {
              report.held += 1;
              if (reply.outcome === 'answer') report.answered += 1;
              else report.refused += 1;
            }
          }
        };
        const onError = (error: Error & { code?: string }) =>
          finish({
            lost:
              error.code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? `out of memory (${this.limits.heapMb} MB heap)`
                : `worker error: ${error.message}`,
          });
        const onExit = () => finish({ lost: 'worker exited' });
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        watch();
        worker.postMessage({ campaign, seed, from } satisfies FuzzJob);
      });
      if ('done' in ended) return report;
      // The input after the last answered one hung or ended the worker: count it, go on from the next.
      report.tried += 1;
      report.broken.push({ label: labels[from] ?? `#${from}`, why: ended.lost });
      from += 1;
      await this.drop();
      if (labels.length === 0 || from >= labels.length) return report;
    }
  }

  async close(): Promise<void> {
    await this.drop();
  }
}

/** `binary plist: inputs tried 412 / held 412 (answered 40, refused 372)` */
export function formatReport(report: CampaignReport): string {
  return `${report.name}: inputs tried ${report.tried} / held ${report.held} (answered ${report.answered}, refused ${report.refused}; slowest ${report.slowest.ms} ms: ${report.slowest.label.slice(0, 80)})`;
}
