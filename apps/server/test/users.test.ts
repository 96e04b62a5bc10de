import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages, ResultCode, type RoleRow, type UserBrief, type UserRow } from '@release/contract';
import { sha256Hex } from '../src/lib/crypto.ts';
import { testDialects } from './helpers/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from './helpers/test-app.ts';

describe.each(testDialects())('user management on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let adminId: number;
  const roleIds = new Map<string, number>();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    const me = await server.request<{ userId: number }>('GET', '/api/user/me', { token: admin });
    adminId = me.body.data.userId;
    const roles = await server.request<RoleRow[]>('GET', '/api/roles', { token: admin });
    for (const role of roles.body.data) roleIds.set(role.roleName, role.roleId);
  });
  afterAll(async () => {
    await server?.close();
  });

  const role = (name: string) => roleIds.get(name) ?? -1;
  const saveUser = (body: Record<string, unknown>, token = admin) =>
    server.request<{ userId: number }>('POST', '/api/user', { token, body });
  const listUsers = (query: Record<string, string | number>) =>
    server.request<UserRow[]>(
      'GET',
      `/api/user?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
      { token: admin },
    );
  const namesFor = async (keyword: string) =>
    (await listUsers({ keyword, pageSize: 1000 })).body.data.map((u) => u.username);
  const me = (token: string) =>
    server.request<{ username: string; roleName: string; roleLevel: number }>('GET', '/api/user/me', { token });

  async function createUser(
    username: string,
    options: { role?: string; password?: string; phone?: string } = {},
  ): Promise<number> {
    const res = await saveUser({
      username,
      password: sha256Hex(options.password ?? 'pass-1234'),
      roleId: role(options.role ?? '开发'),
      phone: options.phone,
    });
    expect(res.body).toMatchObject({ code: 200, msg: 'success' });
    return res.body.data.userId;
  }

  it('creates a user with a role and a phone; the list shows them and they can sign in', async () => {
    const userId = await createUser('alice', { role: '测试', password: 'alice-pass', phone: '13800000001' });
    const res = await listUsers({ keyword: 'alice' });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect(res.body.data).toEqual([
      {
        userId,
        username: 'alice',
        roleId: role('测试'),
        roleName: '测试',
        roleLevel: 20,
        phone: '13800000001',
        createTime: server.clock.now(),
      },
    ]);
    const token = await server.login('alice', 'alice-pass');
    expect((await me(token)).body.data).toMatchObject({ username: 'alice', roleName: '测试', roleLevel: 20 });
  });

  it('pages the list by pageNo and pageSize with the total of matching users, oldest first', async () => {
    const ids = [];
    for (let i = 1; i <= 5; i += 1) ids.push(await createUser(`pager-${i}`));
    const page1 = await listUsers({ keyword: 'pager-', pageNo: 1, pageSize: 2 });
    const page3 = await listUsers({ keyword: 'pager-', pageNo: 3, pageSize: 2 });
    expect(page1.body.total).toBe(5);
    expect(page1.body.data.map((u) => u.userId)).toEqual(ids.slice(0, 2));
    expect(page3.body.total).toBe(5);
    expect(page3.body.data.map((u) => u.username)).toEqual(['pager-5']);
    const all = await listUsers({ pageSize: 1000 });
    expect(all.body.total).toBe(all.body.data.length);
    expect(all.body.data.map((u) => u.username)).toEqual(expect.arrayContaining(['admin', 'pager-1', 'pager-5']));
  });

  it('searches case-insensitively and treats %, _ and \\ in the keyword literally', async () => {
    for (const name of ['pct%one', 'pctXone', 'und_two', 'undXtwo', 'back\\slash']) await createUser(name);
    expect(await namesFor('%')).toEqual(['pct%one']);
    expect(await namesFor('_')).toEqual(['und_two']);
    expect(await namesFor('\\')).toEqual(['back\\slash']);
    expect(await namesFor('PCT')).toEqual(['pct%one', 'pctXone']);
    expect(await namesFor('nobody-has-this')).toEqual([]);
  });

  it('renames a user and changes their role; their session stays and sees the new role', async () => {
    const userId = await createUser('bob', { password: 'bob-pass' });
    const token = await server.login('bob', 'bob-pass');
    const res = await saveUser({ userId, username: 'robert', roleId: role('编辑') });
    expect(res.body).toMatchObject({ code: 200, data: { userId } });
    expect(await namesFor('bob')).toEqual([]);
    expect((await listUsers({ keyword: 'robert' })).body.data[0]).toMatchObject({
      userId,
      roleName: '编辑',
      roleLevel: 10,
    });
    expect((await me(token)).body.data).toMatchObject({ username: 'robert', roleName: '编辑' });
    await expect(server.login('robert', 'bob-pass')).resolves.toBeTruthy();
  });

  it('a new password ends every session of that user; the old password stops working', async () => {
    const userId = await createUser('carol', { password: 'old-pass' });
    const first = await server.login('carol', 'old-pass');
    const second = await server.login('carol', 'old-pass');
    const res = await saveUser({ userId, username: 'carol', roleId: role('开发'), password: sha256Hex('new-pass') });
    expect(res.body.code).toBe(200);
    for (const token of [first, second]) expect((await me(token)).status).toBe(401);
    expect((await me(admin)).status).toBe(200);
    const old = await server.request('POST', '/api/user/login', {
      body: { username: 'carol', password: sha256Hex('old-pass') },
    });
    expect(old.body.msg).toBe(Messages.wrongCredentials);
    await expect(server.login('carol', 'new-pass')).resolves.toBeTruthy();
  });

  it('an admin changing their own password keeps the current session and ends their others', async () => {
    const current = await server.login(ADMIN.username, ADMIN.password);
    const other = await server.login(ADMIN.username, ADMIN.password);
    const res = await saveUser(
      { userId: adminId, username: ADMIN.username, roleId: role('管理员'), password: sha256Hex('changed-pass') },
      current,
    );
    expect(res.body.code).toBe(200);
    expect((await me(current)).status).toBe(200);
    expect((await me(other)).status).toBe(401);
    expect((await me(admin)).status).toBe(401);
    admin = current;
    // Put the password back for the helpers that sign in as admin.
    await saveUser({
      userId: adminId,
      username: ADMIN.username,
      roleId: role('管理员'),
      password: sha256Hex(ADMIN.password),
    });
    await expect(server.adminToken()).resolves.toBeTruthy();
  });

  it('refuses a username that exists in any letter case with 409', async () => {
    const userId = await createUser('Dup-User');
    for (const username of ['Dup-User', 'dup-user', 'DUP-USER', '  dup-user  ', 'ADMIN']) {
      const res = await saveUser({ username, password: sha256Hex('x'), roleId: role('开发') });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: ResultCode.conflict, msg: Messages.userExists, data: null });
    }
    const other = await createUser('not-dup');
    expect((await saveUser({ userId: other, username: 'dUP-uSER', roleId: role('开发') })).status).toBe(409);
    // Changing only the letter case of one's own name is fine.
    expect((await saveUser({ userId, username: 'dup-USER', roleId: role('开发') })).body.code).toBe(200);
    expect(await namesFor('dup-user')).toEqual(['dup-USER']);
  });

  it('finds and de-duplicates names with accented capitals on both databases', async () => {
    await createUser('Élodie');
    expect(await namesFor('Élo')).toEqual(['Élodie']);
    const dup = await saveUser({ username: 'Élodie', password: sha256Hex('x'), roleId: role('开发') });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe(Messages.userExists);
  });

  it('refuses to create a user without a password, with an unknown role, or with a bad phone', async () => {
    const noPassword = await saveUser({ username: 'nopass', roleId: role('开发') });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.code).toBe(ResultCode.badRequest);
    expect(noPassword.body.msg).toContain('password');
    const unknownRole = await saveUser({ username: 'norole', password: sha256Hex('x'), roleId: 99999 });
    expect(unknownRole.status).toBe(400);
    expect(unknownRole.body.msg).toBe(Messages.roleNotFound);
    const zeroRole = await saveUser({ username: 'norole', password: sha256Hex('x'), roleId: 0 });
    expect(zeroRole.status).toBe(400);
    expect(zeroRole.body.msg).toContain('roleId');
    const badPhone = await saveUser({
      username: 'badphone',
      password: sha256Hex('x'),
      roleId: role('开发'),
      phone: 'call me',
    });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.msg).toContain('phone');
    const plain = await saveUser({ username: 'plainpass', password: 'not-a-digest', roleId: role('开发') });
    expect(plain.status).toBe(400);
    expect(plain.body.msg).toContain('password');
    for (const name of ['nopass', 'norole', 'badphone', 'plainpass']) expect(await namesFor(name)).toEqual([]);
    const ghost = await saveUser({ userId: 99999, username: 'ghost', roleId: role('开发') });
    expect(ghost.status).toBe(404);
    expect(ghost.body.msg).toBe(Messages.userNotFound);
  });

  it('refuses names over 64 characters naming the field, and accepts exactly 64', async () => {
    const res = await saveUser({ username: 'x'.repeat(65), password: sha256Hex('x'), roleId: role('开发') });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('username');
    expect(res.body.msg).toContain('64');
    await createUser('y'.repeat(64));
    expect(await namesFor('y'.repeat(64))).toEqual(['y'.repeat(64)]);
  });

  it('stores SQL-looking names literally and the table keeps working', async () => {
    const names = ["'; drop table users; --", "Robert'); DELETE FROM users;--"];
    const before = (await listUsers({ pageSize: 1000 })).body.total ?? 0;
    for (const name of names) await createUser(name, { password: 'sql-pass' });
    for (const name of names) expect(await namesFor(name)).toEqual([name]);
    await expect(server.login(names[1] ?? '', 'sql-pass')).resolves.toBeTruthy();
    await createUser('after-sql');
    expect((await listUsers({ pageSize: 1000 })).body.total).toBe(before + 3);
  });

  it('round-trips a name with Chinese and emoji', async () => {
    const name = '测试同学🚀✨';
    const userId = await createUser(name, { password: 'emoji-pass' });
    expect((await listUsers({ keyword: '🚀' })).body.data).toEqual([
      expect.objectContaining({ userId, username: name }),
    ]);
    expect((await me(await server.login(name, 'emoji-pass'))).body.data.username).toBe(name);
  });

  it('POST /api/user_role changes a role; plain users cannot manage users', async () => {
    const userId = await createUser('dave', { password: 'dave-pass' });
    const token = await server.login('dave', 'dave-pass');
    const res = await server.request('POST', '/api/user_role', {
      token: admin,
      body: { userId, roleId: role('测试') },
    });
    expect(res.body).toEqual({ code: 200, msg: 'success', data: null });
    expect((await me(token)).body.data).toMatchObject({ roleName: '测试', roleLevel: 20 });
    const badRole = await server.request('POST', '/api/user_role', { token: admin, body: { userId, roleId: 99999 } });
    expect(badRole).toMatchObject({ status: 400, body: { msg: Messages.roleNotFound } });
    const badUser = await server.request('POST', '/api/user_role', {
      token: admin,
      body: { userId: 99999, roleId: role('测试') },
    });
    expect(badUser).toMatchObject({ status: 404, body: { msg: Messages.userNotFound } });
    for (const [method, path, body] of [
      ['GET', '/api/user', undefined],
      ['POST', '/api/user', { username: 'sneaky', password: sha256Hex('x'), roleId: role('管理员') }],
      ['POST', '/api/user_role', { userId, roleId: role('管理员') }],
      ['DELETE', `/api/user?userId=${adminId}`, undefined],
    ] as const) {
      const denied = await server.request(method, path, { token, body });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ code: ResultCode.noPermission, msg: Messages.noPermission, data: null });
    }
    expect((await me(token)).body.data.roleLevel).toBe(20);
  });

  it('plain users can read the brief user list and the username list', async () => {
    await createUser('erin', { password: 'erin-pass' });
    const token = await server.login('erin', 'erin-pass');
    const brief = await server.request<UserBrief[]>('GET', '/api/users', { token });
    expect(brief.status).toBe(200);
    expect(brief.body.data).toEqual(
      expect.arrayContaining([
        { userId: adminId, username: 'admin', roleLevel: 100 },
        expect.objectContaining({ username: 'erin', roleLevel: 30 }),
      ]),
    );
    const names = await server.request<string[]>('GET', '/api/username_list', { token });
    expect(names.body.data).toEqual(brief.body.data.map((u) => u.username));
    // Sorted by name (checked on plain lowercase names, which every collation orders alike).
    const plainNames = names.body.data.filter((n) => /^[a-z]+$/.test(n));
    expect(plainNames).toEqual(expect.arrayContaining(['admin', 'alice', 'erin', 'robert']));
    expect(plainNames).toEqual([...plainNames].sort());
    expect(names.body.data).toHaveLength((await listUsers({ pageSize: 1000 })).body.total ?? -1);
  });

  it('deletes another user and ends their session; refuses deleting yourself and unknown users', async () => {
    const userId = await createUser('frank', { password: 'frank-pass' });
    const token = await server.login('frank', 'frank-pass');
    expect((await server.request('DELETE', `/api/user?userId=${userId}`, { token: admin })).body.code).toBe(200);
    expect(await namesFor('frank')).toEqual([]);
    expect((await me(token)).status).toBe(401);
    const self = await server.request('DELETE', `/api/user?userId=${adminId}`, { token: admin });
    expect(self.status).toBe(409);
    expect(self.body).toEqual({ code: ResultCode.conflict, msg: Messages.cannotDeleteSelf, data: null });
    const unknown = await server.request('DELETE', `/api/user?userId=${userId}`, { token: admin });
    expect(unknown).toMatchObject({ status: 404, body: { msg: Messages.userNotFound } });
  });

  it('keeps at least one admin: the last admin cannot be demoted, another admin can be', async () => {
    const otherId = await createUser('second-admin', { role: '管理员', password: 'second-pass' });
    const other = await server.login('second-admin', 'second-pass');
    // With two admins, either may be demoted or deleted.
    expect(
      (
        await server.request('POST', '/api/user_role', {
          token: other,
          body: { userId: adminId, roleId: role('开发') },
        })
      ).body.code,
    ).toBe(200);
    expect((await server.request('GET', '/api/user', { token: admin })).status).toBe(403);
    // Now second-admin is the only one: they cannot demote themselves, by either call.
    const viaRole = await server.request('POST', '/api/user_role', {
      token: other,
      body: { userId: otherId, roleId: role('开发') },
    });
    expect(viaRole.status).toBe(409);
    expect(viaRole.body).toEqual({ code: ResultCode.conflict, msg: Messages.lastAdmin, data: null });
    const viaEdit = await saveUser({ userId: otherId, username: 'second-admin', roleId: role('测试') }, other);
    expect(viaEdit.status).toBe(409);
    expect(viaEdit.body.msg).toBe(Messages.lastAdmin);
    expect((await server.request('DELETE', `/api/user?userId=${otherId}`, { token: other })).body.msg).toBe(
      Messages.cannotDeleteSelf,
    );
    // Restore admin, then the second admin can go.
    expect(
      (
        await server.request('POST', '/api/user_role', {
          token: other,
          body: { userId: adminId, roleId: role('管理员') },
        })
      ).body.code,
    ).toBe(200);
    expect((await server.request('DELETE', `/api/user?userId=${otherId}`, { token: admin })).body.code).toBe(200);
    const alone = await server.request('POST', '/api/user_role', {
      token: admin,
      body: { userId: adminId, roleId: role('编辑') },
    });
    expect(alone.body.msg).toBe(Messages.lastAdmin);
    expect((await me(admin)).body.data.roleLevel).toBe(100);
  });
});
