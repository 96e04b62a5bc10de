import { z } from 'zod';

/** Success envelope `{ code: 200, msg, data, ...extra }` (extra carries `total`, `extraInfo`). */
export function ok<T, E extends Record<string, unknown> = Record<string, never>>(data: T, extra?: E) {
  return { code: 200 as const, msg: 'success', data, ...(extra ?? ({} as E)) };
}

export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number(), msg: z.string(), data });
}

export function pagedEnvelopeSchema<T extends z.ZodType>(item: T) {
  return z.object({ code: z.number(), msg: z.string(), data: z.array(item), total: z.number() });
}

export const emptyEnvelope = envelopeSchema(z.null());
