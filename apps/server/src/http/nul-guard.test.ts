import { describe, expect, it } from 'vitest';
import { findNul } from './nul-guard.ts';

const nested = (depth: number, inner: unknown): unknown => {
  let value = inner;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
};

describe('finding a NUL character in a parsed body', () => {
  it('names the path of the string or the key that holds one', () => {
    expect(
      findNul({
        items: [
          { id: 'a', message: 'ok' },
          { id: 'b', message: 'x\u0000y' },
        ],
      }),
    ).toEqual({ path: ['items', '1', 'message'] });
    expect(findNul({ meta: { 'user\u0000name': 'a' } })).toEqual({ path: ['meta', 'user\u0000name'] });
    expect(findNul('a\u0000')).toEqual({ path: [] });
    expect(findNul({ a: [1, true, null, 'fine', { b: '中文' }] })).toBeNull();
    expect(findNul(Buffer.from('a\u0000b'))).toBeNull();
  });

  it('refuses nesting past 64 levels without recursing, however deep the body goes', () => {
    expect(findNul(nested(63, 'x\u0000'))).toEqual({ path: Array.from({ length: 63 }, () => '0') });
    expect(findNul(nested(65, 'fine'))).toEqual({ tooDeep: true });
    expect(findNul(nested(200_000, 'fine'))).toEqual({ tooDeep: true });
  });
});
