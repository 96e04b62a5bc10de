import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { campaignRandom } from './campaign.ts';
import { allCampaigns } from './campaigns.ts';
import type { FuzzJob, FuzzReply } from './fuzz-messages.ts';

/**
 * Runs fuzz campaigns in a worker thread, so a parser that hangs or outgrows its heap ends this worker (the test
 * names the input and goes on with a fresh one) instead of the test process. Runs under tsx.
 */
const port = parentPort;
if (!port) throw new Error('fuzz-worker runs as a worker thread');
const tempDir = mkdtempSync(path.join(tmpdir(), 'fuzz-'));
const send = (reply: FuzzReply) => port.postMessage(reply);

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const where = error.stack?.split('\n').find((line) => line.includes('/src/')) ?? '';
  return `${error.name}: ${error.message.slice(0, 200)} ${where.trim()}`;
}

port.on('message', (job: FuzzJob) => {
  void (async () => {
    const campaign = allCampaigns.find((item) => item.name === job.campaign);
    if (!campaign) throw new Error(`no campaign ${job.campaign}`);
    const inputs = await campaign.inputs(campaignRandom(job.seed, campaign.name));
    send({ labels: inputs.map((item) => item.label) });
    for (let index = job.from; index < inputs.length; index += 1) {
      const started = performance.now();
      const took = () => Math.round(performance.now() - started);
      try {
        await campaign.run((inputs[index] as (typeof inputs)[number]).bytes(), { tempDir });
        send({ index, ms: took(), outcome: 'answer' });
      } catch (error) {
        send(
          campaign.refuses(error)
            ? { index, ms: took(), outcome: 'refused' }
            : { index, ms: took(), outcome: 'broke', detail: describe(error) },
        );
      }
    }
    send({ end: true });
  })();
});
send({ ready: true });
