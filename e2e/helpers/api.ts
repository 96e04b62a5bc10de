import { createHash } from 'node:crypto';

/** Seeding through the public API, as a script or another user would. */
export function createApi(baseUrl: string) {
  async function call<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
    const res = await fetch(`${baseUrl}${path}`, { method, headers: { token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
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
      const roles = await call<Array<{ roleId: number; roleLevel: number }>>('GET', '/api/roles?pageNo=1&pageSize=100', adminToken);
      const roleId = roles.find((r) => r.roleLevel === roleLevel)?.roleId;
      const digest = createHash('sha256').update(password).digest('hex');
      return (await call<{ userId: number }>('POST', '/api/user', adminToken, { username, password: digest, roleId })).userId;
    },
  };
}
