import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { decodeJson } from '../../lib/decode-json.ts';

/** The App Store Connect API (contract git-apple.md §F): ES256 team-key tokens, JSON:API bodies, paging by `links.next`. */
export const DEFAULT_APPLE_API_BASE_URL = 'https://api.appstoreconnect.apple.com';
const AUDIENCE = 'appstoreconnect-v1';
/** Apple refuses tokens living longer than 20 minutes; we mint for 19 and reuse until a minute is left. */
const TOKEN_LIFETIME_S = 19 * 60;
const TOKEN_REUSE_MARGIN_S = 60;
const REQUEST_TIMEOUT_MS = 30_000;
const MAX_PAGES = 100;

export interface AscCredentials {
  issuerId: string;
  keyId: string;
  /** PEM PKCS#8 EC P-256 (the .p8). */
  p8: string;
}

/** An error answer of Apple: status, the hierarchical `code` (what to branch on), title and detail. */
export class AscApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
  ) {
    super(`${status} ${code}: ${detail || title}`);
    this.name = 'AscApiError';
  }
}

/** Apple could not be reached at all (DNS, refused connection, timeout). */
export class AscNetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AscNetworkError';
  }
}

/** A JSON:API resource as we read it: its id and the attributes a caller's schema names. */
export interface AscResource<A> {
  type: string;
  id: string;
  attributes: A;
}

/** A resource whose attributes fit `attributes` (the fields the caller reads; Apple's others pass unread). */
function resource<A extends z.ZodType>(attributes: A): z.ZodType<AscResource<z.output<A>>> {
  // zod cannot tell of a generic schema whether it admits undefined (so whether `attributes` is optional): named here.
  return z.object({ type: z.string(), id: z.string(), attributes }) as unknown as z.ZodType<AscResource<z.output<A>>>;
}
/** A page of a collection: its resources and the link to the next page. */
function page<A extends z.ZodType>(attributes: A) {
  return z.object({
    data: z.array(resource(attributes)),
    links: z.object({ next: z.string().optional() }).optional(),
  });
}
/** Apple's error answer; only the first error is read. */
const errorAnswer = z.object({
  errors: z.array(
    z.object({ code: z.string().optional(), title: z.string().optional(), detail: z.string().optional() }),
  ),
});

/** Reads the P-256 key of a .p8; throws on anything else. */
export function readP8(p8: string): KeyObject {
  const key = createPrivateKey({ key: p8, format: 'pem' });
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new Error('not an EC P-256 key');
  return key;
}

export function createAscClient(options: {
  baseUrl: string;
  credentials: AscCredentials;
  now?: () => number;
  fetchImpl?: typeof fetch;
}) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const doFetch = options.fetchImpl ?? fetch;
  const key = readP8(options.credentials.p8);
  let cached: { token: string; exp: number } | null = null;

  function token(fresh = false): string {
    const iat = Math.floor(now() / 1000);
    if (!fresh && cached && cached.exp - TOKEN_REUSE_MARGIN_S > iat) return cached.token;
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const exp = iat + TOKEN_LIFETIME_S;
    const input = `${b64({ alg: 'ES256', kid: options.credentials.keyId, typ: 'JWT' })}.${b64({ iss: options.credentials.issuerId, iat, exp, aud: AUDIENCE })}`;
    // JOSE wants the raw r‖s signature, not Node's default DER.
    const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    cached = { token: `${input}.${signature}`, exp };
    return cached.token;
  }

  async function once(method: string, url: string, body: unknown, fresh: boolean): Promise<Response> {
    try {
      return await doFetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token(fresh)}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new AscNetworkError(error instanceof Error ? error.message : String(error), { cause: error });
    }
  }

  /**
   * One call; its answer decoded with `answer` (null for an empty one). An answer that does not fit is Apple's
   * fault, thrown as a 502 MALFORMED_RESPONSE naming the field, like any error answer of Apple's.
   */
  async function request<S extends z.ZodType>(
    method: string,
    pathOrUrl: string,
    answer: S,
    body?: unknown,
  ): Promise<z.output<S> | null> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${baseUrl}${pathOrUrl}`;
    let response = await once(method, url, body, false);
    // Apple answers a spurious 401 now and then: one retry with a fresh token (as fastlane does).
    if (response.status === 401) {
      await response.arrayBuffer().catch(() => undefined);
      response = await once(method, url, body, true);
    }
    const text = await response.text();
    if (!response.ok) throw errorOf(response.status, text);
    if (response.status === 204 || text === '') return null;
    const decoded = decodeJson(text, answer);
    if (!decoded.ok)
      throw new AscApiError(
        502,
        'MALFORMED_RESPONSE',
        'Malformed response',
        `Apple's answer to ${method} ${url.replace(baseUrl, '')} does not fit: ${decoded.problem}`.slice(0, 500),
      );
    return decoded.value;
  }

  /** Every item of a collection, following `links.next` verbatim. */
  async function all<A extends z.ZodType>(path: string, attributes: A): Promise<Array<AscResource<z.output<A>>>> {
    const items: Array<AscResource<z.output<A>>> = [];
    const answer = page(attributes);
    let next: string | undefined = path;
    for (let count = 0; next && count < MAX_PAGES; count++) {
      const got: z.output<typeof answer> | null = await request('GET', next, answer);
      items.push(...(got?.data ?? []));
      next = got?.links?.next;
    }
    return items;
  }

  return {
    request,
    all,
    /** One resource (a POST or PATCH answers the one it made). */
    async single<A extends z.ZodType>(
      method: string,
      path: string,
      attributes: A,
      body?: unknown,
    ): Promise<AscResource<z.output<A>>> {
      const answer = await request(method, path, z.object({ data: resource(attributes) }), body);
      if (!answer) throw new AscApiError(502, 'EMPTY_RESPONSE', 'Empty response', 'Apple answered without a body');
      return answer.data;
    },
  };
}
export type AscClient = ReturnType<typeof createAscClient>;

function errorOf(status: number, text: string): AscApiError {
  // A 403 may come with an odd content type: read the body whatever it says.
  const parsed = decodeJson(text, errorAnswer);
  const first = parsed.ok ? parsed.value.errors[0] : undefined;
  if (first) return new AscApiError(status, first.code ?? String(status), first.title ?? '', first.detail ?? '');
  // Not Apple's error shape (a proxy's page): the status and the start of the text.
  return new AscApiError(status, `HTTP_${status}`, '', text.slice(0, 200));
}
