import { describe, expect, it } from 'vitest';
import type { CommitLogItem } from '@release/contract';
import { endChoices, itemsBetween, itemsOfDay } from './send-range.ts';

function item(id: number, commitTime: number): CommitLogItem {
  return { id, commitTime, commitId: `c${id}`.padEnd(12, '0'), commitMessage: `feat: ${id}` } as CommitLogItem;
}

// Newest first, as the list holds them; 3 and 4 share a commit time.
const items = [item(5, 500), item(4, 300), item(3, 300), item(2, 200), item(1, 100)];

describe('the send-logs range (SPEC §4)', () => {
  it('offers as end points only the items after the start, oldest first', () => {
    expect(endChoices(items, item(3, 300)).map((i) => i.id)).toEqual([4, 5]);
    expect(endChoices(items, item(5, 500))).toEqual([]);
  });

  it('covers the start, the end and everything between, and nothing else', () => {
    expect(itemsBetween(items, item(2, 200), item(4, 300)).map((i) => i.id)).toEqual([4, 3, 2]);
  });

  it("takes today's items by the day's bounds, end excluded", () => {
    expect(itemsOfDay(items, 200, 500).map((i) => i.id)).toEqual([4, 3, 2]);
  });
});
