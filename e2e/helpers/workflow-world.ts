import type { Page } from 'playwright-core';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createSandbox, GitRepo } from '../../apps/server/src/integrations/git/testing/git-fixture.ts';
import { createApi } from './api.ts';
import { signIn as signInAs } from './browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess, type ServerProcessOptions } from './server-process.ts';

export const EDITOR = { username: 'editor', password: 'editor-pass-1' };
export const VIEWER = { username: 'viewer', password: 'viewer-pass-1' };
export const ALICE = { name: 'alice', email: 'alice@studio.test' };
export const BOB = { name: '王小明', email: 'bob@studio.test' };

/** The shared signIn of browser.ts, for a user object (EDITOR, VIEWER, E2E_ADMIN). */
export function signIn(page: Page, user: { username: string; password: string }): Promise<void> {
  return signInAs(page, user.username, user.password);
}

/** Epoch seconds inside today (local time) and not after now, so every item is 今天 and within a week. */
export function todayAt(offsetSec: number): number {
  const startOfDay = new Date();
  startOfDay.setHours(0, 0, 0, 0);
  const base = Math.max(startOfDay.getTime() / 1000 + 60, Math.floor(Date.now() / 1000) - 600);
  return base + offsetSec;
}

export interface WorkflowWorld {
  server: ServerProcess;
  api: ReturnType<typeof createApi>;
  adminToken: string;
  editorId: number;
  viewerId: number;
  appId: number;
  appPath: string;
  /** The client repository (main with a tag, and a dev branch) and a second one for the server code. */
  client: GitRepo;
  backend: GitRepo;
  /** The published apk the snapshot is bound to. */
  apk: { id: number; appVersion: string };
  cleanup(): Promise<void>;
}

/**
 * A real server (file:// repositories allowed, scheduled polling off so the UI's sync is what runs),
 * an editor and a viewer of one app, two real git repositories and one published apk.
 */
export async function startWorkflowWorld(options: ServerProcessOptions = {}): Promise<WorkflowWorld> {
  const sandbox = createSandbox('release-e2e-git-');
  const client = GitRepo.init(sandbox.path('client'));
  client.commit({ message: 'feat(login): 一键登录', author: ALICE, time: todayAt(0), files: { 'login.ts': '1' } });
  client.checkout('dev', true);
  client.commit({ message: 'perf: dev 分支上的缓存', author: BOB, time: todayAt(30), files: { 'cache.ts': '1' } });
  client.checkout('main');
  client.commit({
    message: 'fix: 修复启动崩溃\n\n低内存机型上启动时崩溃',
    author: BOB,
    time: todayAt(60),
    files: { 'boot.ts': '1' },
  });
  client.tag('v1.4.2', '1.4.2 正式版', ALICE, todayAt(70));
  const backend = GitRepo.init(sandbox.path('backend'));
  backend.commit({ message: 'feat: 订单接口', author: ALICE, time: todayAt(90), files: { 'order.go': '1' } });

  const server = await startServerProcess({ ALLOW_FILE_REPOSITORIES: 'true', SYNC_INTERVAL_SEC: '0' }, options);
  const api = createApi(server.url);
  const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
  const editorId = await api.createUser(admin, EDITOR.username, EDITOR.password, 30);
  const viewerId = await api.createUser(admin, VIEWER.username, VIEWER.password, 20);
  const appPath = 'star';
  const appId = await api.createApp(admin, {
    appName: '星际舰队',
    path: appPath,
    editUserIds: [editorId],
    viewUserIds: [viewerId],
  });
  const editor = await api.login(EDITOR.username, EDITOR.password);
  const apkBytes = sampleApk({
    label: '星际舰队',
    packageName: 'com.studio.starfleet',
    versionName: '1.4.2',
    versionCode: 302,
  });
  const apk = await api.publishPackage(editor, appId, 'StarFleet.apk', apkBytes);
  return {
    server,
    api,
    adminToken: admin,
    editorId,
    viewerId,
    appId,
    appPath,
    client,
    backend,
    apk,
    async cleanup() {
      await server.stop();
      sandbox.cleanup();
    },
  };
}
