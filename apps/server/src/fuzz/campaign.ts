import { seededRandom, type SeededRandom } from '@release/inspect/testing/hostile/seeded-random.ts';

/**
 * A fuzz campaign: the hostile inputs of one parser and how to tell its answers. Inputs are built inside the
 * fuzz worker from the project's own sample builders and a seeded generator, so one seed gives the same
 * inputs (the same truncation points and mutated positions) on every run.
 */
export interface FuzzInput {
  label: string;
  bytes: () => Buffer;
}

export interface Campaign {
  /** As in docs/parsers.md's table. */
  name: string;
  inputs(random: SeededRandom): FuzzInput[] | Promise<FuzzInput[]>;
  /** Runs the parser on one input; any value it returns (null included) is an answer. */
  run(bytes: Buffer, context: CampaignContext): unknown;
  /** True for the parser's own typed refusal; anything else thrown is a break. */
  refuses(error: unknown): boolean;
}

export interface CampaignContext {
  /** A directory of the worker's own, for parsers that read files. */
  tempDir: string;
}

/** The random source of one campaign: the run's seed mixed with the campaign's name, so campaigns do not shift each other. */
export function campaignRandom(seed: number, name: string): SeededRandom {
  let hash = 0x811c9dc5;
  for (const char of name) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193);
  return seededRandom((seed ^ hash) >>> 0);
}

/** `input` as a lazily built input. */
export const input = (label: string, bytes: () => Buffer): FuzzInput => ({ label, bytes });

/** True when `error` is an instance of one of `classes`. */
export function isOneOf(error: unknown, classes: Array<abstract new (...args: never[]) => Error>): boolean {
  return classes.some((kind) => error instanceof kind);
}
