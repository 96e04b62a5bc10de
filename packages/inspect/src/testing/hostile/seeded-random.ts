/** A small seeded generator (mulberry32): the same seed gives the same hostile inputs on every run. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    /** An integer in [0, below). */
    int: (below: number): number => Math.floor(next() * below),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    bytes: (count: number): Buffer => {
      const out = Buffer.alloc(count);
      for (let i = 0; i < count; i += 1) out[i] = Math.floor(next() * 256);
      return out;
    },
  };
}
export type SeededRandom = ReturnType<typeof seededRandom>;
