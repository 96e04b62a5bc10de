import type { z } from 'zod';
import { decodeJson } from '../lib/decode-json.ts';

/** A JSON column whose text does not fit its schema: a damaged row, named so an operator can find it. */
export class CorruptJsonColumnError extends Error {
  constructor(
    readonly column: string,
    detail: string,
  ) {
    super(`stored JSON in ${column} is unreadable: ${detail}`);
    this.name = 'CorruptJsonColumnError';
  }
}

export interface JsonColumn<T> {
  /** The stored text, parsed and checked once, in the repository that reads it. */
  decode(text: string): T;
  encode(value: T): string;
}

/** The code of the process warning a damaged value read as its column's fallback raises. */
export const CORRUPT_JSON_WARNING = 'CORRUPT_JSON_COLUMN';
/** Damaged values already warned about (column and the start of the text): a list read again does not repeat them. */
const warned = new Set<string>();
const MAX_WARNED = 1_000;

/**
 * A text column holding JSON (`table.column` names it in errors). Repositories decode such columns as
 * they read a row and hand services typed records, never a string to parse or an unchecked cast.
 * With `fallback`, a value that does not fit is read as the fallback and reported once as a process warning
 * (code CORRUPT_JSON_WARNING): one damaged row must not take down a list or a page that shows it.
 */
export function jsonColumn<S extends z.ZodType>(
  column: string,
  schema: S,
  options: { fallback?: () => z.output<S> } = {},
): JsonColumn<z.output<S>> {
  const strict = (text: string): z.output<S> => {
    const decoded = decodeJson(text, schema);
    if (!decoded.ok) throw new CorruptJsonColumnError(column, decoded.problem);
    return decoded.value;
  };
  const { fallback } = options;
  return {
    decode: fallback
      ? (text) => {
          try {
            return strict(text);
          } catch (error) {
            if (!(error instanceof CorruptJsonColumnError)) throw error;
            const key = `${column}\n${text.slice(0, 200)}`;
            if (!warned.has(key) && warned.size < MAX_WARNED) {
              warned.add(key);
              process.emitWarning(`${error.message} (read as its default)`, { code: CORRUPT_JSON_WARNING });
            }
            return fallback();
          }
        }
      : strict,
    encode: (value) => JSON.stringify(value),
  };
}
