import type { z } from 'zod';

/** JSON text checked against a schema: the typed value, or what is wrong with it (one line, for an error message). */
export type Decoded<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * Parses text we did not type ourselves (a file the server wrote and reads back, an answer of another service) and
 * checks it against the schema of the fields we read. Never throws: each caller decides what a bad text means
 * (start over, a clear error with its own code).
 */
export function decodeJson<S extends z.ZodType>(text: string, schema: S): Decoded<z.output<S>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    problem: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
  };
}
