import type { CommitLogItem } from '@release/contract';
import { commitTypes, displayType, parseCommitMessage, shortCommitId } from '../commits/commit-message.ts';

/** The lengths the server cuts a pushed item's texts to (apps/server messaging compose.ts). */
export const SENT_SUBJECT_MAX = 200;
export const SENT_AUTHOR_MAX = 32;
const NO_AUTHOR = '未知';

/** At most `max` characters (code points: no emoji or CJK character is split), with … when cut, as the server clips. */
export function clipText(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

export interface SentLine {
  shortId: string | null;
  typeLabel: string | null;
  subject: string;
  author: string;
}

/** One item as the pushed message lists it: 7-character id, type, the subject cut to 200 characters, the committer (未知 without one). */
export function sentLine(item: CommitLogItem): SentLine {
  const parsed = parseCommitMessage(item.commitMessage);
  const type = displayType(parsed, item.nativePackageType !== null);
  return {
    shortId: shortCommitId(item.commitId),
    typeLabel: type ? commitTypes[type].label : null,
    subject: clipText(parsed.subject, SENT_SUBJECT_MAX),
    author: clipText(item.remark || NO_AUTHOR, SENT_AUTHOR_MAX),
  };
}
