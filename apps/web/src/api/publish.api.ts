import {
  APP_LIST_PAGE,
  isBundleIdMismatch,
  ResultCode,
  type BundleIdMismatch,
  PACKAGE_UPLOAD_TIMEOUT_MS,
  V2_UPLOAD_TIMEOUT_MS,
  type AppListItem,
  type AppVersionRow,
  type GetSignedUrlResult,
  type MultipartStartResult,
  type AppPermit,
  type UploadAppBody,
} from '@release/contract';
import { api, settleAnswer, tokenHeader } from './client.ts';
import { ApiError, isApiError } from './api-error.ts';

/** The publish page shows failures itself (under the progress bar), so these calls do not toast. */
const quiet = { silent: true } as const;

export async function issueUploadKeys(
  appFileName: string,
  attachFileNames: string[],
  signal: AbortSignal,
  appId?: number,
): Promise<GetSignedUrlResult> {
  return (
    await api.post<GetSignedUrlResult>(
      '/api/get_signed_url',
      { appFileName, attachFileNames, appId },
      { ...quiet, signal },
    )
  ).data;
}

export async function startMultipart(
  fileKey: string,
  fileSize: number,
  signal: AbortSignal,
): Promise<MultipartStartResult> {
  return (
    await api.post<MultipartStartResult>(
      '/api/multi_signed_url_upload',
      { functionName: 'start', fileKey, fileSize },
      { ...quiet, signal },
    )
  ).data;
}

export async function finishMultipart(
  fileKey: string,
  uploadId: string,
  tags: Array<{ partNo: number; etag: string }>,
  signal: AbortSignal,
): Promise<{ fileKey: string; fileSize: number }> {
  const body = { functionName: 'finish', fileKey, uploadId, tags };
  // Assembling a big file takes a while on some stores.
  return (
    await api.post<{ fileKey: string; fileSize: number }>('/api/multi_signed_url_upload', body, {
      ...quiet,
      signal,
      timeoutMs: V2_UPLOAD_TIMEOUT_MS,
    })
  ).data;
}

/** POST /api/v2/upload_app (60 s): the uploaded package becomes a version. Safe to send again. */
export async function registerPackage(body: UploadAppBody, signal: AbortSignal): Promise<AppVersionRow> {
  return (
    await api.post<AppVersionRow>('/api/v2/upload_app', body, { ...quiet, signal, timeoutMs: V2_UPLOAD_TIMEOUT_MS })
  ).data;
}

/** What a one-request publish sends beside the file. */
export type DirectPublishFields = Pick<UploadAppBody, 'appId' | 'description' | 'chatEnv' | 'allowOtherBundleId'>;

/**
 * POST /api/upload_app/direct: a small package sent and registered in one request (its fields before the file, as the
 * route wants them). Through XMLHttpRequest, for the upload's progress; answers and failures as any API call's.
 */
export function publishDirect(
  file: File,
  fields: DirectPublishFields,
  signal: AbortSignal,
  onUploadProgress: (loaded: number, total: number) => void,
): Promise<AppVersionRow> {
  const form = new FormData();
  form.append('appId', String(fields.appId));
  if (fields.description) form.append('note', fields.description);
  if (fields.chatEnv) form.append('chatEnv', fields.chatEnv);
  if (fields.allowOtherBundleId) form.append('allowOtherBundleId', 'true');
  form.append('file', file, file.name);
  if (signal.aborted) return Promise.reject(new ApiError('canceled', 'canceled'));
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const abort = (): void => xhr.abort();
    const settle = (payload: unknown, timedOut = false): void => {
      signal.removeEventListener('abort', abort);
      try {
        resolve(settleAnswer<AppVersionRow>(payload, { ...quiet, signal }, timedOut).data);
      } catch (error) {
        reject(error);
      }
    };
    xhr.open('POST', '/api/upload_app/direct');
    xhr.timeout = PACKAGE_UPLOAD_TIMEOUT_MS;
    for (const [name, value] of Object.entries({ Accept: 'application/json', ...tokenHeader() }))
      xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => onUploadProgress(event.loaded, event.total));
    xhr.addEventListener('load', () => {
      let payload: unknown;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = undefined;
      }
      settle(payload);
    });
    xhr.addEventListener('error', () => settle(undefined));
    xhr.addEventListener('abort', () => settle(undefined));
    xhr.addEventListener('timeout', () => settle(undefined, true));
    signal.addEventListener('abort', abort, { once: true });
    xhr.send(form);
  });
}

/** v2/upload_app refused the package for its bundle id (409, data names the ids): confirming may publish it. */
export function bundleIdMismatchOf(error: unknown): BundleIdMismatch | null {
  if (!isApiError(error) || error.code !== ResultCode.conflict) return null;
  const data = error.body?.data;
  return isBundleIdMismatch(data) ? data : null;
}

/** A failure worth sending again as is: the request never got an answer. */
export function isTransientFailure(error: unknown): boolean {
  return isApiError(error) && (error.kind === 'network' || error.kind === 'timeout');
}

export interface EditableApp {
  appId: number;
  appName: string;
  appIcon: string | null;
  path: string;
}

/** GET /api/user_apps row (contract `userApp`). */
interface UserApp {
  appId: number;
  appName: string;
  path: string;
  permit: AppPermit;
}

/** Apps the user may publish to: every app for admins, else the apps they hold an edit permit on. */
export async function fetchEditableApps(isAdmin: boolean, signal?: AbortSignal): Promise<EditableApp[]> {
  if (isAdmin) {
    const apps = (await api.get<AppListItem[]>('/api/apps', { ...APP_LIST_PAGE }, { signal })).data;
    return apps.map(({ appId, appName, appIcon, path }) => ({ appId, appName, appIcon, path }));
  }
  const mine = (await api.get<UserApp[]>('/api/user_apps', undefined, { signal })).data;
  return mine
    .filter((a) => a.permit === 'edit')
    .map(({ appId, appName, path }) => ({ appId, appName, appIcon: null, path }));
}
