import { input, type Campaign } from './campaign.ts';

/** A campaign whose parser misbehaves on purpose: proves that the runner catches a throw, a hang and a heap blow-up. */
export const selfCheckCampaign: Campaign = {
  name: 'self-check',
  inputs: () => [
    input('answers', () => Buffer.from('a')),
    input('throws a TypeError', () => Buffer.from('t')),
    input('spins forever', () => Buffer.from('s')),
    input('allocates without end', () => Buffer.from('m')),
    input('refuses', () => Buffer.from('r')),
  ],
  run(bytes) {
    const kind = bytes.toString();
    if (kind === 't') throw new TypeError('x is undefined');
    if (kind === 'r') throw new RangeError('refused');
    if (kind === 's') for (;;);
    if (kind === 'm') {
      const kept: number[][] = [];
      for (;;) kept.push(new Array<number>(1_000_000).fill(kept.length));
    }
    return kind;
  },
  refuses: (error) => error instanceof RangeError,
};
