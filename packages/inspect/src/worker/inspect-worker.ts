import { getPriority, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { PackageInspectionError } from '../inspection-error.ts';
import { inspectPackage } from '../package-inspector.ts';
import type { InspectJob, InspectReply } from './inspect-messages.ts';

/**
 * The inspection worker (node:worker_threads): inspects one package at a time for inspect-pool.ts and answers
 * with the inspection or the uploader's error. Runs from the sources under tsx, and as dist/inspect-worker.mjs
 * from the bundle.
 */
const port = parentPort;
if (!port) throw new Error('inspect-worker runs as a worker thread');

/**
 * Inspection yields the cores to the thread that answers requests: on Linux a nice value belongs to one thread, and
 * setpriority on "this process" (0) sets the calling thread's, so only this worker runs at the lower priority.
 * Where that is refused (another system) it runs at the process's own. Relative to the thread's own value: a server
 * started under `nice` (or systemd's Nice=) keeps its readers ahead, and a root server never raises a worker above it.
 */
const INSPECT_NICE = 10;
try {
  setPriority(Math.min(getPriority() + INSPECT_NICE, 19));
} catch {
  // Not fatal: the worker still runs off the request thread.
}

port.on('message', (job: InspectJob) => {
  inspectPackage(job.filePath, job.options).then(
    (inspection) => port.postMessage({ id: job.id, inspection } satisfies InspectReply),
    (error: unknown) => {
      const reply: InspectReply =
        error instanceof PackageInspectionError
          ? { id: job.id, refusal: { reason: error.reason, message: error.message } }
          : { id: job.id, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
      port.postMessage(reply);
    },
  );
});
port.postMessage({ ready: true } satisfies InspectReply);
