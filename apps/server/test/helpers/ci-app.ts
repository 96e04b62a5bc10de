import type { AppVersionRow, CreatedApiToken } from '@release/contract';
import type { TestServer } from './test-app.ts';

export interface CiApp {
  appId: number;
  /** The session of `ci-bot`, an editor of the app. */
  editorSession: string;
  /** An API token of `ci-bot`, as a pipeline's RELEASE_TOKEN. */
  ciToken: string;
  /** How many versions the app has. */
  versionCount(): Promise<number>;
  /** The newest version of the app. */
  newest(): Promise<AppVersionRow | undefined>;
}

/** The app 商城 (path `shop`) with an editor `ci-bot` holding an API token: what a CI pipeline publishes to. */
export async function createCiApp(server: TestServer): Promise<CiApp> {
  const editor = await server.createUser({ username: 'ci-bot', roleLevel: 30 });
  const appId = await server.createApp({ appName: '商城', path: 'shop', edit: [editor] });
  const ciToken = (
    await server.request<CreatedApiToken>('POST', '/api/api_token', { token: editor.token, body: { name: 'ci' } })
  ).body.data.token;
  const list = () =>
    server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}`, { token: editor.token });
  return {
    appId,
    editorSession: editor.token,
    ciToken,
    versionCount: async () => (await list()).body.total ?? -1,
    newest: async () => (await list()).body.data[0],
  };
}
