import { z } from 'zod';
import {
  loginResult,
  signInUrl,
  appListItem,
  appVersionRow,
  currentUser,
  directUploadResult,
  getSignedUrlResult,
  latestVersionResult,
  multipartFinishResult,
  multipartStartResult,
  type uploadAppBody,
  userApp,
  versionExistsResult,
  type NativePackageType,
  type VersionExistsQuery,
} from '@release/contract';
import { CliError, ExitCode, exitCodeForAnswer } from './exit-codes.ts';
import { text } from './messages.ts';
import { withRetries } from './retry.ts';
import type { FormBody } from './direct-form.ts';

export const API_TIMEOUT_MS = 60_000;
/** Registering a version inspects the whole package on the server: a big one takes a while. */
export const REGISTER_TIMEOUT_MS = 10 * 60_000;
const RETRY_DELAY_MS = 1000;

/** A server answer other than success, classified into an exit code. */
export class ApiError extends CliError {
  readonly status: number;
  readonly code: number | null;

  constructor(status: number, code: number | null, message: string) {
    super(exitCodeForAnswer(status, code), message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** Network failures, timeouts, 5xx and 429 are worth another try; refusals are not. */
export function isTransient(error: unknown): boolean {
  return error instanceof CliError && error.exitCode === ExitCode.failed;
}

export function describeNetworkError(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return text.timedOut;
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

const envelopeHead = z.object({ code: z.number(), msg: z.string() });

interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** A multipart/form-data body instead of JSON. */
  form?: FormBody;
  timeoutMs?: number;
  /** Only for calls that are safe to send twice. */
  retries?: number;
}

export interface ApiClientOptions {
  /** Base URL of the release system, without a trailing slash. */
  server: string;
  token: string;
  fetchFn?: typeof fetch;
}

/** The few calls the CLI makes, each answer checked against the shared contract. */
export function createApiClient(options: ApiClientOptions) {
  const fetchFn = options.fetchFn ?? fetch;

  async function once<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    data: S,
    call: CallOptions,
  ): Promise<z.output<S>> {
    const url = new URL(path, `${options.server}/`);
    for (const [key, value] of Object.entries(call.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    const what = `${method} ${url.pathname}`;
    let status: number;
    let body: string;
    try {
      const { form } = call;
      const response = await fetchFn(url, {
        method,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          accept: 'application/json',
          ...(form
            ? { 'content-type': form.contentType, 'content-length': String(form.length) }
            : call.body === undefined
              ? {}
              : { 'content-type': 'application/json' }),
        },
        body: form ? form.body() : call.body === undefined ? undefined : JSON.stringify(call.body),
        ...(form ? { duplex: 'half' } : {}),
        signal: AbortSignal.timeout(call.timeoutMs ?? API_TIMEOUT_MS),
      });
      status = response.status;
      body = await response.text();
    } catch (error) {
      throw new CliError(ExitCode.failed, `${what}: ${describeNetworkError(error)}`, { cause: error });
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new ApiError(status, null, text.notJson(what, status, options.server));
    }
    const head = envelopeHead.safeParse(json);
    if (!head.success) throw new ApiError(status, null, text.unexpectedAnswer(what, status));
    if (head.data.code !== 200 || status >= 300) throw new ApiError(status, head.data.code, head.data.msg);
    const parsed = data.safeParse((json as { data?: unknown }).data);
    if (!parsed.success)
      throw new CliError(ExitCode.failed, `${text.notTheContract(what)}\n${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  function call<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    data: S,
    options: CallOptions = {},
  ): Promise<z.output<S>> {
    return withRetries(() => once(method, path, data, options), {
      retries: options.retries ?? 0,
      delayMs: RETRY_DELAY_MS,
      isTransient,
    });
  }

  return {
    server: options.server,
    me: () => call('GET', '/api/user/me', currentUser, { retries: 2 }),
    /** Lark sign-in from a terminal: the authorize URL whose code comes back to our loopback `port`. */
    larkLoginUrl: (port: number) =>
      call('GET', '/api/user/lark_login_url', signInUrl, { query: { mode: 'terminal_login', port }, retries: 2 }),
    larkLogin: (code: string, state: string) =>
      call('POST', '/api/user/lark_login', loginResult, { body: { code, state } }),
    /** Apps the user holds a permit on. */
    userApps: () => call('GET', '/api/user_apps', z.array(userApp), { retries: 2 }),
    /** Every app the user can see (admins: all). */
    apps: () => call('GET', '/api/apps', z.array(appListItem), { retries: 2 }),
    latest: (path: string, platform: NativePackageType) =>
      call('GET', '/api/app_versions/latest', latestVersionResult, { query: { path, platform }, retries: 2 }),
    exists: (query: VersionExistsQuery) =>
      call('GET', '/api/app_versions/exists', versionExistsResult, { query, retries: 2 }),
    issueKeys: (appFileName: string, attachFileNames: string[]) =>
      call('POST', '/api/get_signed_url', getSignedUrlResult, { body: { appFileName, attachFileNames } }),
    startUpload: (fileKey: string, fileSize: number) =>
      call('POST', '/api/multi_signed_url_upload', multipartStartResult, {
        body: { functionName: 'start', fileKey, fileSize },
      }),
    /** Finishing twice answers the same, so it is retried. */
    finishUpload: (fileKey: string, uploadId: string, tags: Array<{ partNo: number; etag: string }>) =>
      call('POST', '/api/multi_signed_url_upload', multipartFinishResult, {
        body: { functionName: 'finish', fileKey, uploadId, tags },
        retries: 3,
      }),
    /**
     * POST /api/upload_app/direct: a small package sent and registered in one request; the answer names the app
     * (a server before issue 23's change does not). Not retried: a request that lost its answer may have made the
     * version.
     */
    publishDirect: (form: FormBody) =>
      call('POST', '/api/upload_app/direct', directUploadResult.partial({ appName: true }), {
        form,
        timeoutMs: REGISTER_TIMEOUT_MS,
      }),
    /** Registering one upload twice answers the same version, so it is retried. */
    registerVersion: (body: z.input<typeof uploadAppBody>) =>
      call('POST', '/api/v2/upload_app', appVersionRow, { body, timeoutMs: REGISTER_TIMEOUT_MS, retries: 2 }),
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
