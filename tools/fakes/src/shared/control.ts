import type { FakeRequest, RouteDef } from './http-server.ts';

/** A control call's input: the JSON body (or {} when none). */
export type ControlInput = Record<string, unknown>;

/**
 * A `/__fake/...` JSON route: the handler's return value is the 200 answer; a thrown error answers 400
 * with `{error}`, so out-of-process tests see what was wrong with their call.
 */
export function controlRoute(
  method: string,
  path: string,
  run: (input: ControlInput, req: FakeRequest) => unknown,
): RouteDef {
  return {
    name: `control ${method} ${path}`,
    method,
    path: `/__fake${path}`,
    handler: async (req) => {
      const input =
        typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? (req.body as ControlInput) : {};
      try {
        const result = await run(input, req);
        return { status: 200, body: result ?? { ok: true } };
      } catch (error) {
        return { status: 400, body: { error: error instanceof Error ? error.message : String(error) } };
      }
    },
  };
}

export function requireString(input: ControlInput, key: string): string {
  const value = input[key];
  if (typeof value !== 'string' || value === '') throw new Error(`${key} (string) is required`);
  return value;
}

export function requireNumber(input: ControlInput, key: string): number {
  const value = input[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${key} (number) is required`);
  return value;
}
