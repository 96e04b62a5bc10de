import { type AppVersionRow, directUploadFields } from '@release/contract';
import type { ApiClient } from '../api-client.ts';
import type { FormBody } from '../direct-form.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import { findApp } from './find-app.ts';

export interface PublishedDirect {
  app: { appId: number; appName: string };
  version: AppVersionRow;
}

/** Whether the server can be left to find the app: a path it reads as the CLI would match it (trimmed, ≤ 64). */
export function isSendablePath(appPath: string): boolean {
  const parsed = directUploadFields.shape.path.safeParse(appPath);
  return parsed.success && parsed.data === appPath;
}

/**
 * A package of one part published in one request (POST /api/upload_app/direct) to the app of a download path: the
 * server finds the app, so no call looks it up first (issue 23; `form` carries `path`). A failure that may be about the
 * app (not found, no permit, or a refusal that cut the request short) is told as a lookup first would have told it:
 * the app is then looked up, and one that is not there is named; otherwise the server's own refusal stands.
 */
export async function publishToPath(api: ApiClient, appPath: string, form: FormBody): Promise<PublishedDirect> {
  let answer: Awaited<ReturnType<ApiClient['publishDirect']>>;
  try {
    answer = await api.publishDirect(form);
  } catch (error) {
    if (error instanceof CliError && (error.exitCode === ExitCode.notFound || error.exitCode === ExitCode.failed))
      await findApp(api, appPath).catch((lookup: unknown) => {
        if (lookup instanceof CliError && lookup.exitCode === ExitCode.notFound) throw lookup;
      });
    throw error;
  }
  const { appName, ...version } = answer;
  // A server from before the answer named the app: its name from the lookup the CLI used to make first.
  const name = appName ?? (await findApp(api, appPath)).appName;
  return { app: { appId: version.appId, appName: name }, version };
}
