import type { SeededRandom } from '@release/inspect/testing/hostile/seeded-random.ts';
import { input, type FuzzInput } from './campaign.ts';

/** Values that sit on the edges parsers get wrong: zero, sign bits, all ones, lengths of 0x7f/0x80. */
const INTERESTING_BYTES = [0x00, 0x01, 0x0f, 0x10, 0x7f, 0x80, 0x81, 0xfe, 0xff];
const INTERESTING_WORDS = [0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff];

/** One to four edits of `sample`: a random or edge byte, an edge 32-bit word, a cut-out range or a repeated one. */
export function mutate(sample: Buffer, random: SeededRandom): { bytes: Buffer; edits: string } {
  let bytes = Buffer.from(sample);
  const edits: string[] = [];
  const count = 1 + random.int(4);
  for (let i = 0; i < count && bytes.length > 0; i += 1) {
    const at = random.int(bytes.length);
    const kind = random.int(6);
    if (kind <= 1) {
      const value = kind === 0 ? random.int(256) : random.pick(INTERESTING_BYTES);
      bytes[at] = value;
      edits.push(`[${at}]=${value}`);
    } else if (kind === 2 && at + 4 <= bytes.length) {
      const value = random.pick(INTERESTING_WORDS);
      if (random.int(2) === 0) bytes.writeUInt32LE(value, at);
      else bytes.writeUInt32BE(value, at);
      edits.push(`[${at}..+4]=${value}`);
    } else if (kind === 3) {
      const length = 1 + random.int(Math.min(64, bytes.length - at));
      bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + length)]);
      edits.push(`cut ${at}+${length}`);
    } else if (kind === 4) {
      const length = 1 + random.int(Math.min(64, bytes.length - at));
      const times = 1 + random.int(8);
      const piece = bytes.subarray(at, at + length);
      bytes = Buffer.concat([
        bytes.subarray(0, at + length),
        ...Array.from({ length: times }, () => piece),
        bytes.subarray(at + length),
      ]);
      edits.push(`repeat ${at}+${length}×${times}`);
    } else {
      bytes[at] = (bytes[at] as number) ^ (1 << random.int(8));
      edits.push(`flip [${at}]`);
    }
  }
  return { bytes, edits: edits.join(' ') };
}

/** FUZZ_SCALE=10 makes ten times as many mutations (a longer hunt than the suite's); 1 by default. */
export const MUTATION_SCALE = Math.max(1, Number(process.env.FUZZ_SCALE) || 1);

/** `count` seeded mutations of `sample` (× FUZZ_SCALE); each label names its edits. */
export function mutationsOf(name: string, sample: Buffer, count: number, random: SeededRandom): FuzzInput[] {
  return Array.from({ length: count * MUTATION_SCALE }, (_, index) => {
    const { bytes, edits } = mutate(sample, random);
    return input(`${name} mutation #${index}: ${edits}`, () => bytes);
  });
}

/** A real sample as built, then cut at each of its section boundaries. */
export function asBuiltAndCut(name: string, sample: Buffer, boundaries: (bytes: Buffer) => number[]): FuzzInput[] {
  return [input(`${name} as built`, () => sample), ...truncationsOf(name, sample, boundaries(sample))];
}

/** The sample cut at every boundary (each boundary b gives the first b bytes), deduplicated and sorted. */
export function truncationsOf(name: string, sample: Buffer, boundaries: number[]): FuzzInput[] {
  const points = [...new Set(boundaries.filter((at) => at >= 0 && at < sample.length))].sort((a, b) => a - b);
  return points.map((at) => input(`${name} cut at ${at} of ${sample.length}`, () => sample.subarray(0, at)));
}
