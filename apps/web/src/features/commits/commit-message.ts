/** SPEC §3 commit message types, each with its Chinese label and emoji. */
export const commitTypes = {
  feat: { label: '新增/变更', emoji: '✨' },
  fix: { label: 'Bug修改', emoji: '🐛' },
  docs: { label: '文档', emoji: '📝' },
  perf: { label: '性能优化', emoji: '⚡' },
  style: { label: '代码样式', emoji: '💄' },
  refactor: { label: '代码重构', emoji: '♻️' },
  test: { label: '测试相关', emoji: '✅' },
  chore: { label: '构建过程或辅助工具的变动', emoji: '🔧' },
  revert: { label: '回退', emoji: '⏪' },
  build: { label: '构建', emoji: '📦' },
  other: { label: '其他改动', emoji: '🔖' },
} as const;

export type CommitType = keyof typeof commitTypes;

const aliases: Record<string, CommitType> = { doc: 'docs' };

export interface ParsedCommitMessage {
  /** null when the first line is not `type(scope): subject`. */
  type: CommitType | null;
  scope: string | null;
  breaking: boolean;
  /** The first line without its type prefix. */
  subject: string;
  /** The lines after the first, trimmed ('' when none). */
  body: string;
}

// `type(scope)!: subject`, also with a full-width colon as typed by Chinese keyboards.
const HEADER = /^\s*([a-zA-Z]+)(?:\(([^)]*)\))?(!)?\s*[:：]\s*(.*)$/;

function typeOf(word: string): CommitType | null {
  const key = word.toLowerCase();
  if (Object.hasOwn(commitTypes, key)) return key as CommitType;
  return aliases[key] ?? null;
}

/** Splits a conventional-commit message; a first line without a known type keeps its text as the subject. */
export function parseCommitMessage(message: string): ParsedCommitMessage {
  const [first = '', ...rest] = message.replace(/\r\n/g, '\n').split('\n');
  const body = rest.join('\n').trim();
  const match = HEADER.exec(first);
  const type = match?.[1] ? typeOf(match[1]) : null;
  // "Note: ..." is prose, not a type: keep the line as written.
  if (!match || type === null) return { type: null, scope: null, breaking: false, subject: first.trim(), body };
  return { type, scope: match[2]?.trim() || null, breaking: match[3] === '!', subject: (match[4] ?? '').trim(), body };
}

/** The label shown for a commit: its type, or 其他改动 for repository commits without one. */
export function displayType(parsed: ParsedCommitMessage, isPackage: boolean): CommitType | null {
  return parsed.type ?? (isPackage ? null : 'other');
}

export { shortCommitId } from '@release/contract';
