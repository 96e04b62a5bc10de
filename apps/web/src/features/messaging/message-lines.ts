import { clipText, SENT_AUTHOR_MAX, SENT_NO_AUTHOR, SENT_SUBJECT_MAX, type CommitLogItem } from '@release/contract';
import { commitTypes, displayType, parseCommitMessage, shortCommitId } from '../commits/commit-message.ts';

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
    author: clipText(item.remark || SENT_NO_AUTHOR, SENT_AUTHOR_MAX),
  };
}
