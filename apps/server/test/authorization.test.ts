import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_EVENTS_PATH, ResultCode } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalBlobStore } from '../src/storage/local-blob-store.ts';
import { createUrlSigner } from '../src/storage/url-signer.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

// Routes that must stay admin-only; loosening one of them has to change this list on purpose.
const ADMIN_ONLY = [
  'GET /api/user',
  'POST /api/user',
  'DELETE /api/user',
  'POST /api/user_role',
  'GET /api/roles',
  'POST /api/role',
  'DELETE /api/role',
  'POST /api/category',
  'DELETE /api/category',
  'GET /api/system_setting',
  'POST /api/system_setting',
  'GET /api/system_setting/repo_hosts',
  'POST /api/system_setting/repo_hosts',
  'GET /api/system_setting/jobs',
  'POST /api/system_setting/jobs/run',
  'POST /api/system_setting/jobs/enabled',
  'GET /api/system_setting/job_queue',
  'GET /api/deliveries',
  'POST /api/delivery/retry',
  'POST /api/cert_upload',
  'GET /api/cert_list',
  'DELETE /api/cert',
  'GET /api/udids',
  'POST /api/udid',
  'DELETE /api/udid',
  'GET /api/udid/export',
  'POST /api/udid/import',
  'GET /api/apple_accounts',
  'POST /api/apple_account',
  'POST /api/apple_account/update',
  'POST /api/apple_account/bind',
  'DELETE /api/apple_account',
  'POST /api/apple_account/sync',
  'POST /api/apple_account/register_devices',
  'POST /api/apple_account/profile',
  'POST /api/apple_account/add_device_to_build',
  'POST /api/task_view',
];
const PUBLIC = [
  'GET /api/system/ping',
  'GET /api/login_options',
  'POST /api/user/login',
  'POST /api/user/logout',
  'POST /api/send_phone_code',
  'POST /api/forget_password',
];
// No session, but a signature the server made (blob-store.test.ts, media-access.test.ts).
const SIGNED = [
  'PUT /api/blob/part',
  'GET /api/blob/file',
  'GET /api/media/*',
  'GET /api/app_version/manifest.plist',
  'GET /api/app_version/open',
  // A package from the install page, counted, then redirected to the file (install-stats.test.ts: forged links refused).
  'GET /api/app_version/download',
  // HarmonyOS modules and the store://enterprise/manifest manifest (harmony-install.test.ts: a forged link is refused).
  'GET /api/app_version/harmony_module',
  'GET /api/app_version/harmony_manifest.json5',
];
// Behind the app's install password instead of a session (install.test.ts); the gate itself shows the app's name and icon
// only. Tester feedback takes the page's pass (feedback.test.ts).
const INSTALL_PASSWORD = ['GET /api/app_version', 'GET /api/app_version/app', 'POST /api/app_version/feedback'];
// Checked against the workflow's own secret (custom-push.test.ts).
const WORKFLOW_SECRET = ['POST /api/workflow/push/:token', 'POST /api/workflow/webhook/:token'];
// Lark's event push: the verification token, AES and X-Lark-Signature (lark-doc-events.test.ts).
const LARK_EVENTS = ['POST /api/lark/event'];
// Self-service device registration (device-enroll.test.ts): the install page token to start, then a
// single-use challenge (the profile link, the device's signed answer) and the server's signed result link.
const DEVICE_ENROLL = [
  'POST /api/device_enroll/install',
  'GET /api/device_enroll/profile.mobileconfig',
  'POST /api/device_enroll/callback',
  'GET /api/device_enroll/result',
];
// Sign-in through Lark and WeCom: a single-use state, bound to the browser that started it (sso.test.ts).
const SIGN_IN = [
  'GET /api/user/lark_login_url',
  'POST /api/user/lark_login',
  'POST /api/user/sign_in_denied',
  'GET /api/user/lark_qr_login',
  'POST /api/user/lark_qr_login',
  'GET /api/user/lark_jsapi_config',
  'GET /api/user/wecom_login_url',
  'POST /api/qywx_login',
];

function concrete(url: string): string {
  return url.replace(/:(\w+)/g, 'x');
}

describe.each(testDialects())('every registered route checks its access on %s', (dialect) => {
  let server: TestServer;
  /** As server.request, but the live stream (which never ends) is read only up to its status. */
  const call = async (method: string, url: string, token: string) => {
    if (url !== LIVE_EVENTS_PATH) return server.request(method, url, { token });
    const controller = new AbortController();
    const res = await fetch(`${server.url}${url}`, { headers: { token }, signal: controller.signal });
    const body = res.ok ? { code: 200, msg: '', data: null } : ((await res.json()) as { code: number; msg: string });
    controller.abort();
    return { status: res.status, body };
  };
  beforeAll(async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'release-authz-'));
    server = await startTestServer(dialect, {
      blobs: (clock) => createLocalBlobStore({ root, signer: createUrlSigner('a'.repeat(32)), clock }),
    });
    await server.createUser({ username: 'plain', password: 'plain-pass', roleLevel: 30 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('declares the expected access on the sensitive routes', () => {
    const declared = new Map(server.built.routes.map((r) => [`${r.method} ${r.url}`, r.access]));
    for (const key of ADMIN_ONLY) expect([key, declared.get(key)]).toEqual([key, 'admin']);
    for (const key of PUBLIC) expect([key, declared.get(key)]).toEqual([key, 'public']);
    const publicRoutes = [...declared].filter(([, access]) => access === 'public').map(([key]) => key);
    expect(publicRoutes.sort()).toEqual(
      [
        ...PUBLIC,
        ...SIGNED,
        ...INSTALL_PASSWORD,
        ...WORKFLOW_SECRET,
        ...SIGN_IN,
        ...LARK_EVENTS,
        ...DEVICE_ENROLL,
      ].sort(),
    );
  });

  it('anonymous callers get 401 on every non-public route', async () => {
    for (const route of server.built.routes.filter((r) => r.access !== 'public')) {
      const res = await server.request(route.method, concrete(route.url));
      expect([route.method, route.url, res.status, res.body.msg.includes('token')]).toEqual([
        route.method,
        route.url,
        401,
        true,
      ]);
    }
  });

  it('plain users get 10028 (HTTP 403) on every admin route and pass the guard elsewhere', async () => {
    // One sign-in (a password hash is slow on a busy machine), renewed after a route that ends it.
    let token = await server.login('plain', 'plain-pass');
    for (const route of server.built.routes) {
      const res = await call(route.method, concrete(route.url), token);
      if (route.url === '/api/user/logout') token = await server.login('plain', 'plain-pass');
      if (route.access === 'admin') {
        expect([route.method, route.url, res.status, res.body.code]).toEqual([
          route.method,
          route.url,
          403,
          ResultCode.noPermission,
        ]);
      } else {
        expect([route.method, route.url, [401, 403].includes(res.status)]).toEqual([route.method, route.url, false]);
      }
    }
  });

  it('admins pass the guard on every route', async () => {
    let token = await server.adminToken();
    for (const route of server.built.routes) {
      const res = await call(route.method, concrete(route.url), token);
      if (route.url === '/api/user/logout') token = await server.adminToken();
      expect([route.method, route.url, [401, 403].includes(res.status)]).toEqual([route.method, route.url, false]);
    }
  });
});
