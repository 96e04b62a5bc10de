import { createHash } from 'node:crypto';

/** Seeding through the public API, as a script or another user would. */
export function createApi(baseUrl: string) {
  async function call<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { token, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; msg: string; data: T };
    if (json.code !== 200) throw new Error(`${method} ${path}: ${json.msg}`);
    return json.data;
  }
  return {
    call,
    async login(username: string, password: string): Promise<string> {
      const digest = createHash('sha256').update(password).digest('hex');
      return (await call<{ token: string }>('POST', '/api/user/login', '', { username, password: digest })).token;
    },
    async createUser(adminToken: string, username: string, password: string, roleLevel: number): Promise<number> {
      const roles = await call<Array<{ roleId: number; roleLevel: number }>>(
        'GET',
        '/api/roles?pageNo=1&pageSize=100',
        adminToken,
      );
      const roleId = roles.find((r) => r.roleLevel === roleLevel)?.roleId;
      const digest = createHash('sha256').update(password).digest('hex');
      return (await call<{ userId: number }>('POST', '/api/user', adminToken, { username, password: digest, roleId }))
        .userId;
    },
    /** POST /api/app with edit and view users; answers the new app's id. */
    async createApp(
      adminToken: string,
      app: { appName: string; path: string; appType?: string; editUserIds?: number[]; viewUserIds?: number[] },
    ): Promise<number> {
      const distributeUsers = [
        ...(app.editUserIds ?? []).map((userId) => ({ userId, permit: 'edit' })),
        ...(app.viewUserIds ?? []).map((userId) => ({ userId, permit: 'view' })),
      ];
      const body = {
        appName: app.appName,
        appType: app.appType ?? 'unity',
        password: '135790',
        path: app.path,
        distributeUsers,
      };
      return (await call<{ appId: number }>('POST', '/api/app', adminToken, body)).appId;
    },
    /** Publishes a package the way the CLI does: signed key, multipart parts, finish, v2/upload_app. */
    async publishPackage(
      token: string,
      appId: number,
      fileName: string,
      bytes: Buffer,
      /** More fields of upload_app (e.g. the `commit` and `branch` a build came from). */
      extra: Record<string, unknown> = {},
    ): Promise<{ id: number; appVersion: string }> {
      const keys = await call<{ appFile: { fileKey: string } }>('POST', '/api/get_signed_url', token, {
        appFileName: fileName,
      });
      const fileKey = keys.appFile.fileKey;
      const start = await call<{
        uploadId: string;
        partSize: number;
        uploadParamsList: Array<{ partNo: number; signedUrl: string }>;
      }>('POST', '/api/multi_signed_url_upload', token, {
        functionName: 'start',
        fileKey,
        fileSize: bytes.length,
      });
      const tags = [];
      for (const part of start.uploadParamsList) {
        const res = await fetch(part.signedUrl, {
          method: 'PUT',
          body: new Uint8Array(bytes.subarray((part.partNo - 1) * start.partSize, part.partNo * start.partSize)),
        });
        if (!res.ok) throw new Error(`part ${part.partNo}: HTTP ${res.status}`);
        tags.push({ partNo: part.partNo, etag: res.headers.get('etag') ?? '' });
      }
      await call('POST', '/api/multi_signed_url_upload', token, {
        functionName: 'finish',
        fileKey,
        uploadId: start.uploadId,
        tags,
      });
      return call<{ id: number; appVersion: string }>('POST', '/api/v2/upload_app', token, {
        appId,
        s3Url: fileKey,
        ...extra,
      });
    },
  };
}
