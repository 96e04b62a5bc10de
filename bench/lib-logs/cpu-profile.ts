import fs from 'node:fs';
import { Session, type Profiler } from 'node:inspector/promises';
import path from 'node:path';

/**
 * The same profile `node --cpu-prof` writes, for one part of the run: start() … stop(). stop() writes the
 * .cpuprofile (for Chrome DevTools or speedscope) when given a file, and answers the top self-time entries.
 */
export async function startProfile(): Promise<{ stop(file?: string): Promise<string[]> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return {
    async stop(file?: string) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      if (file) fs.writeFileSync(file, JSON.stringify(profile));
      return summarise(profile);
    },
  };
}

/** Self time per function (name, file:line), the top `count`, as "  12.3%  name  file:line". */
export function summarise(profile: Profiler.Profile, count = 18): string[] {
  const deltas = profile.timeDeltas ?? [];
  const samples = profile.samples ?? [];
  const byNode = new Map<number, number>();
  for (const [i, id] of samples.entries()) byNode.set(id, (byNode.get(id) ?? 0) + (deltas[i] ?? 0));
  const total = [...byNode.values()].reduce((a, b) => a + b, 0) || 1;
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    const where = frame.url
      ? `${path.basename(frame.url.replace(/^file:\/\//, ''))}:${frame.lineNumber + 1}`
      : '(native)';
    const key = `${frame.functionName || '(anonymous)'}  ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + (byNode.get(node.id) ?? 0));
  }
  return [...byFunction.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([key, micros]) =>
        `${((100 * micros) / total).toFixed(1).padStart(6)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}`,
    );
}
