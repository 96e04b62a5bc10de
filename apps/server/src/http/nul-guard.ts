import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';

const NUL = '\u0000';

/** The path of the first string holding a NUL character (`items.0.message`), or null. */
export function findNul(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const [key, child] of Object.entries(value)) {
    const found = findNul(child, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * Refuses text with a NUL character (U+0000) anywhere in a JSON body, the query or the path, before any route
 * sees it: PostgreSQL cannot store it in text and failed such a request with a 500, while SQLite kept it. Raw bodies
 * (webhooks, Lark events) are Buffers and pass: what external systems send is cleaned where it is stored.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [['body', request.body], ['query', request.query], ['params', request.params]] as const) {
      const found = findNul(value);
      if (found) throw AppError.badRequest(`参数错误：${found.join('.') || part} 不能包含空字符（U+0000）`);
    }
  });
}
