import type { z } from 'zod';

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

/**
 * A text column holding JSON (`table.column` names it in errors). Repositories decode such columns as
 * they read a row and hand services typed records, never a string to parse or an unchecked cast.
 */
export function jsonColumn<S extends z.ZodType>(column: string, schema: S): JsonColumn<z.output<S>> {
  return {
    decode(text) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new CorruptJsonColumnError(column, (error as Error).message);
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success)
        throw new CorruptJsonColumnError(
          column,
          parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
        );
      return parsed.data;
    },
    encode: (value) => JSON.stringify(value),
  };
}
