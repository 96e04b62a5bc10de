/** Tiny fetch helpers shared by the fakes' tests (loopback only). */
export interface JsonAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = Record<string, unknown>>(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; raw?: string | Buffer } = {},
): Promise<JsonAnswer<T>> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | Buffer | undefined;
  if (init.raw !== undefined) body = init.raw;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  const response = await fetch(url, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // HTML pages and redirects stay text.
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
