import type { ApiClient } from '../api-client.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import { text } from '../messages.ts';

/** The app of a download path: first among the user's permits, then among every app they can see. */
export async function findApp(api: ApiClient, appPath: string): Promise<{ appId: number; appName: string }> {
  const own = (await api.userApps()).find((a) => a.path === appPath);
  if (own) return own;
  const visible = (await api.apps()).find((a) => a.path === appPath);
  if (visible) return visible;
  throw new CliError(ExitCode.notFound, text.noSuchApp(appPath));
}
