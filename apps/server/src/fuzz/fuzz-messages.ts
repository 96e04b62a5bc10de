/** What the test sends the fuzz worker: one campaign, from input `from` on (after a hang the worker is replaced). */
export interface FuzzJob {
  campaign: string;
  seed: number;
  from: number;
}

/** What the worker answers: the campaign's input labels, then one outcome per input, then the end. */
export type FuzzReply =
  | { ready: true }
  | { labels: string[] }
  | { index: number; ms: number; outcome: 'answer' | 'refused' }
  | { index: number; ms: number; outcome: 'broke'; detail: string }
  | { end: true };
