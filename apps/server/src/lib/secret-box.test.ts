import { describe, expect, it } from 'vitest';
import { createSecretBox, SealedValueError } from './secret-box.ts';

describe('secret box', () => {
  it('round-trips, never stores the plain text, and refuses a tampered or foreign value', () => {
    const box = createSecretBox('a'.repeat(40));
    const sealed = box.seal('135790');
    expect(sealed).not.toContain('135790');
    expect(box.seal('135790')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('135790');
    const parts = sealed.split('.');
    const tampered = [parts[0], parts[1], parts[2], `${parts[3]?.slice(0, -2)}AA`].join('.');
    expect(() => box.open(tampered)).toThrow();
    expect(() => createSecretBox('b'.repeat(40)).open(sealed)).toThrow();
  });
});

describe('secret box during a rotation', () => {
  const oldKey = 'o'.repeat(40);
  const newKey = 'n'.repeat(40);

  it('opens values of the previous key, seals with the current one, and reseals only what is not under it', () => {
    const old = createSecretBox(oldKey).seal('p8-key');
    const box = createSecretBox(newKey, [oldKey]);
    expect(box.open(old)).toBe('p8-key');
    expect(box.opensWithCurrent(old)).toBe(false);
    const moved = box.reseal(old) ?? '';
    expect(createSecretBox(newKey).open(moved)).toBe('p8-key');
    expect(() => createSecretBox(oldKey).open(moved)).toThrow();
    expect(box.reseal(moved)).toBeNull();
    expect(() => createSecretBox(oldKey).open(box.seal('x'))).toThrow();
  });

  it('refuses a value no key opens with SealedValueError', () => {
    const foreign = createSecretBox('f'.repeat(40)).seal('robot');
    expect(() => createSecretBox(newKey, [oldKey]).open(foreign)).toThrow(SealedValueError);
    expect(() => createSecretBox(newKey, [oldKey]).reseal(foreign)).toThrow(SealedValueError);
  });
});
