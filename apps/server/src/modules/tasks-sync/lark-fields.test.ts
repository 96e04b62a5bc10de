import { describe, expect, it } from 'vitest';
import { attachmentKey, limited } from './attachment-sync.ts';
import { cut, groupFromOptions, labelOfValue, valueOfLabel } from './lark-fields.ts';

describe('Lark field mapping', () => {
  it('maps the spec’s labels to its values and keeps labels added in Lark as their own values', () => {
    expect(valueOfLabel('bugStatus', '修复中')).toBe('fixing');
    expect(labelOfValue('bugSeverity', 'fatal')).toBe('致命');
    expect(valueOfLabel('bugStatus', '待验证')).toBe('待验证');
    expect(labelOfValue('bugStatus', '待验证')).toBe('待验证');
    expect(groupFromOptions('priority', [{ name: '高' }, { name: '紧急插队' }])).toEqual([
      { value: 'high', label: '高' },
      { value: '紧急插队', label: '紧急插队' },
    ]);
  });

  it('cuts text longer than Lark takes at 3000 characters, counting characters not bytes', () => {
    expect([...cut('缺'.repeat(3500))]).toHaveLength(3000);
    expect(cut('短')).toBe('短');
  });

  it('names downloaded attachments lark_attachment/ + 16 characters + extension', () => {
    expect(attachmentKey('Crash Log.TXT')).toMatch(/^lark_attachment\/[A-Za-z0-9]{16}\.txt$/);
    expect(attachmentKey('无扩展名')).toMatch(/^lark_attachment\/[A-Za-z0-9]{16}$/);
  });

  it('runs attachment work a few at a time, answering in order', async () => {
    let active = 0;
    let peak = 0;
    const out = await limited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      active += 1;
      peak = Math.max(peak, active);
      await Promise.resolve();
      active -= 1;
      return n * 2;
    });
    expect(out).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(peak).toBe(3);
  });
});
