import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.ts';

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
