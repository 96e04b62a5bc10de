import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';

const NUL = '\u0000';
/** Deeper than any body of ours; a body nested further is refused rather than walked. */
const MAX_DEPTH = 64;

export type NulFinding = { path: string[] } | { tooDeep: true } | null;

/**
 * The path of the first string or key holding a NUL character (`items.0.message`), a body nested deeper than
 * MAX_DEPTH, or null. An explicit stack (no recursion), and the path is built only for what is found.
 */
export function findNul(value: unknown): NulFinding {
  const stack: Array<{ value: unknown; depth: number; parent: number; key: string }> = [
    { value, depth: 0, parent: -1, key: '' },
  ];
  const seen: Array<{ parent: number; key: string }> = [];
  const pathOf = (index: number, last?: string): string[] => {
    const path: string[] = last === undefined ? [] : [last];
    for (let i = index; i > 0; i = seen[i]?.parent ?? 0) path.unshift(seen[i]?.key ?? '');
    return path;
  };
  while (stack.length > 0) {
    const entry = stack.pop() as (typeof stack)[number];
    const index = seen.push({ parent: entry.parent, key: entry.key }) - 1;
    if (typeof entry.value === 'string') {
      if (entry.value.includes(NUL)) return { path: pathOf(index) };
      continue;
    }
    if (entry.value === null || typeof entry.value !== 'object' || Buffer.isBuffer(entry.value)) continue;
    if (entry.depth >= MAX_DEPTH) return { tooDeep: true };
    for (const [key, child] of Object.entries(entry.value)) {
      if (key.includes(NUL)) return { path: pathOf(index, key) };
      stack.push({ value: child, depth: entry.depth + 1, parent: index, key });
    }
  }
  return null;
}

/**
 * Refuses text with a NUL character (U+0000) anywhere in a JSON body, the query or the path, before any route
 * sees it: PostgreSQL cannot store it in text and failed such a request with a 500, while SQLite kept it. A body
 * nested deeper than any of ours is refused too. Raw bodies (webhooks, Lark events) are Buffers and pass: update
 * items keep what git hosts and Lark send, NUL shown as U+FFFD (commit-ingest).
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['body', request.body],
      ['query', request.query],
      ['params', request.params],
    ] as const) {
      const found = findNul(value);
      if (found && 'tooDeep' in found) throw AppError.badRequest(`参数错误：${part} 嵌套层级过深`);
      if (found) throw AppError.badRequest(`参数错误：${found.path.join('.') || part} 不能包含空字符（U+0000）`);
    }
  });
}
