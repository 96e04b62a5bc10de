import { findNul } from '../http/nul-guard.ts';
import { textBoundaries } from './boundaries.ts';
import { input, type Campaign, type FuzzInput } from './campaign.ts';
import { asBuiltAndCut, mutationsOf } from './mutate.ts';

/** JSON bodies as the server reads them: JSON.parse (as Fastify's parser does), then the nesting and NUL guard. */

const MiB = 1024 * 1024;

/** Hostile JSON bodies (also sent over HTTP by test/fuzz-uploads.test.ts). */
export function hostileJson(): FuzzInput[] {
  const text = (value: string) => Buffer.from(value);
  const depth = MiB / 2 - 1;
  return [
    input('arrays nested 524,287 deep (1 MiB)', () => text(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
    input('objects nested 100,000 deep', () => text(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`)),
    input('arrays opened 1 MiB deep, never closed', () => text('['.repeat(MiB))),
    input('100,000 keys', () => text(`{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":0`).join(',')}}`)),
    input('the same key 100,000 times', () => text(`{${Array.from({ length: 100_000 }, () => '"k":0').join(',')}}`)),
    input('an array of 500,000 numbers', () => text(`[${Array.from({ length: 500_000 }, () => '1').join(',')}]`)),
    input('a string of 1 MiB escapes', () => text(`"${'\\u0000'.repeat(MiB / 6)}"`)),
    input('a number of 1 MiB digits', () => text('9'.repeat(MiB))),
    input('__proto__ and constructor keys', () =>
      text('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'),
    ),
    input('NUL in a key 60 levels down', () => text(`${'{"a":'.repeat(60)}{"k\\u0000":1}${'}'.repeat(60)}`)),
  ];
}

export const jsonCampaign: Campaign = {
  name: 'JSON bodies',
  inputs(random) {
    const body = Buffer.from(
      JSON.stringify({
        appName: '演示',
        appType: 'native',
        password: '246810',
        path: 'demo',
        distributeUsers: [{ userId: 2, permit: 'edit' }],
        tags: ['a', 'b'],
        extra: { nested: { deeper: [1, 2.5, true, null] } },
      }),
    );
    return [
      ...asBuiltAndCut('body', body, (bytes) => textBoundaries(bytes, '{}[],:"')),
      ...hostileJson(),
      ...mutationsOf('body', body, 200, random),
    ];
  },
  run: (bytes) => findNul(JSON.parse(bytes.toString('utf8'))),
  refuses: (error) => error instanceof SyntaxError,
};
