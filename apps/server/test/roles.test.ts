import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages, ResultCode, type RoleRow } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

describe.each(testDialects())('role management on %s', (dialect) => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
  });

  const listRoles = (query = '', token = admin) => server.request<RoleRow[]>('GET', `/api/roles${query}`, { token });
  const saveRole = (body: Record<string, unknown>, token = admin) =>
    server.request<{ roleId: number }>('POST', '/api/role', { token, body });
  const deleteRole = (roleId: number, token = admin) =>
    server.request('DELETE', `/api/role?roleId=${roleId}`, { token });
  const allRoles = async () => (await listRoles('?pageSize=1000')).body.data;
  const roleNamed = async (name: string) => (await allRoles()).find((r) => r.roleName === name);
  const me = (token: string) =>
    server.request<{ roleName: string; roleLevel: number }>('GET', '/api/user/me', { token });

  async function createRole(roleName: string, roleLevel: number): Promise<number> {
    const res = await saveRole({ roleName, roleLevel });
    expect(res.body).toMatchObject({ code: 200, msg: 'success' });
    return res.body.data.roleId;
  }

  it('starts with the four seeded roles, the built-in admin role first, with user counts', async () => {
    const res = await listRoles();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    expect(
      res.body.data.map(({ roleName, roleLevel, builtin, userCount }) => ({ roleName, roleLevel, builtin, userCount })),
    ).toEqual([
      { roleName: '管理员', roleLevel: 100, builtin: true, userCount: 1 },
      { roleName: '开发', roleLevel: 30, builtin: false, userCount: 0 },
      { roleName: '测试', roleLevel: 20, builtin: false, userCount: 0 },
      { roleName: '编辑', roleLevel: 10, builtin: false, userCount: 0 },
    ]);
  });

  it('pages 10 roles at a time by default; page 2 holds the rest, ordered by level', async () => {
    for (let i = 1; i <= 12; i += 1) await createRole(`role-${String(i).padStart(2, '0')}`, 40 + i);
    const page1 = await listRoles();
    const page2 = await listRoles('?pageNo=2');
    expect(page1.body.total).toBe(16);
    expect(page2.body.total).toBe(16);
    expect(page1.body.data).toHaveLength(10);
    expect(page2.body.data).toHaveLength(6);
    const levels = [...page1.body.data, ...page2.body.data].map((r) => r.roleLevel);
    expect(levels).toEqual([100, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 30, 20, 10]);
    expect(page2.body.data.map((r) => r.roleName)).toEqual(['role-03', 'role-02', 'role-01', '开发', '测试', '编辑']);
    expect((await listRoles('?pageNo=3')).body.data).toEqual([]);
    expect((await listRoles('?pageNo=1&pageSize=5')).body.data.map((r) => r.roleName)).toEqual([
      '管理员',
      'role-12',
      'role-11',
      'role-10',
      'role-09',
    ]);
  });

  it('counts the users of each role', async () => {
    await server.createUser({ username: 'tester-1', roleLevel: 20 });
    await server.createUser({ username: 'tester-2', roleLevel: 20 });
    await server.createUser({ username: 'editor-1', roleLevel: 10 });
    expect((await roleNamed('测试'))?.userCount).toBe(2);
    expect((await roleNamed('编辑'))?.userCount).toBe(1);
    expect((await roleNamed('开发'))?.userCount).toBe(0);
    expect((await roleNamed('管理员'))?.userCount).toBe(1);
  });

  it('creates and renames a role; its users see the new name', async () => {
    const roleId = await createRole('QA', 25);
    expect(await roleNamed('QA')).toEqual({ roleId, roleName: 'QA', roleLevel: 25, userCount: 0, builtin: false });
    const { token } = await server.createUser({ username: 'qa-user', roleLevel: 25 });
    const renamed = await saveRole({ roleId, roleName: 'Quality', roleLevel: 26 });
    expect(renamed.body).toEqual({ code: 200, msg: 'success', data: { roleId } });
    expect(await roleNamed('QA')).toBeUndefined();
    expect(await roleNamed('Quality')).toEqual({
      roleId,
      roleName: 'Quality',
      roleLevel: 26,
      userCount: 1,
      builtin: false,
    });
    expect((await me(token)).body.data).toMatchObject({ roleName: 'Quality', roleLevel: 26 });
    // Changing only the letter case of its own name is fine.
    expect((await saveRole({ roleId, roleName: 'QUALITY', roleLevel: 26 })).body.code).toBe(200);
    const ghost = await saveRole({ roleId: 99999, roleName: 'ghost', roleLevel: 1 });
    expect(ghost).toMatchObject({ status: 404, body: { msg: Messages.roleNotFound } });
  });

  it('refuses a duplicate role name in any letter case with 409', async () => {
    await createRole('Ops', 15);
    await createRole('Équipe', 15);
    const before = (await listRoles()).body.total;
    for (const roleName of ['Ops', 'ops', ' OPS ', '管理员', 'Équipe']) {
      const res = await saveRole({ roleName, roleLevel: 15 });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: ResultCode.conflict, msg: Messages.roleExists, data: null });
    }
    const other = await createRole('Support', 15);
    const rename = await saveRole({ roleId: other, roleName: 'oPs', roleLevel: 15 });
    expect(rename).toMatchObject({ status: 409, body: { msg: Messages.roleExists } });
    expect((await listRoles()).body.total).toBe((before ?? 0) + 1);
  });

  it('refuses a role level outside 0..100 and names the field; accepts 0 and 100', async () => {
    for (const roleLevel of [-1, 101, 50.5, 'high']) {
      const res = await saveRole({ roleName: `bad-level-${String(roleLevel)}`, roleLevel });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(ResultCode.badRequest);
      expect(res.body.msg).toContain('roleLevel');
    }
    const tooLong = await saveRole({ roleName: 'r'.repeat(65), roleLevel: 1 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.msg).toContain('roleName');
    expect((await allRoles()).filter((r) => r.roleName.startsWith('bad-level'))).toEqual([]);
    await createRole('level-zero', 0);
    await createRole('level-hundred', 100);
    expect((await roleNamed('level-zero'))?.roleLevel).toBe(0);
    expect((await roleNamed('level-hundred'))?.roleLevel).toBe(100);
  });

  it('refuses deleting the built-in admin role and a role in use; deletes an unused one', async () => {
    const adminRole = await roleNamed('管理员');
    const builtin = await deleteRole(adminRole?.roleId ?? -1);
    expect(builtin.status).toBe(409);
    expect(builtin.body).toEqual({ code: ResultCode.conflict, msg: Messages.roleBuiltin, data: null });
    const inUse = await deleteRole((await roleNamed('测试'))?.roleId ?? -1);
    expect(inUse.status).toBe(409);
    expect(inUse.body).toEqual({ code: ResultCode.conflict, msg: Messages.roleInUse, data: null });
    expect(await roleNamed('测试')).toMatchObject({ userCount: 2 });

    const unused = await createRole('Temp', 5);
    const before = (await listRoles()).body.total ?? 0;
    expect((await deleteRole(unused)).body).toEqual({ code: 200, msg: 'success', data: null });
    expect(await roleNamed('Temp')).toBeUndefined();
    expect((await listRoles()).body.total).toBe(before - 1);
    expect((await deleteRole(unused)).status).toBe(404);
    // A name freed by deleting can be used again.
    await createRole('temp', 5);
  });

  it('the built-in admin role keeps level 100 when edited', async () => {
    const adminRole = await roleNamed('管理员');
    const res = await saveRole({ roleId: adminRole?.roleId, roleName: '管理员', roleLevel: 10 });
    expect(res.body.code).toBe(200);
    expect((await roleNamed('管理员'))?.roleLevel).toBe(100);
    expect((await me(admin)).body.data.roleLevel).toBe(100);
  });

  it('refuses lowering the level of the role that holds the last admins', async () => {
    const bossRole = await createRole('超级管理员', 100);
    const { token: boss } = await server.createUser({ username: 'boss', roleLevel: 100 });
    const adminId = (await server.request<{ userId: number }>('GET', '/api/user/me', { token: admin })).body.data
      .userId;
    // createUser picks the first level-100 role; put boss on the custom one and demote admin.
    const bossId = (await server.request<{ userId: number }>('GET', '/api/user/me', { token: boss })).body.data.userId;
    expect(
      (await server.request('POST', '/api/user_role', { token: admin, body: { userId: bossId, roleId: bossRole } }))
        .body.code,
    ).toBe(200);
    const devRole = (await roleNamed('开发'))?.roleId;
    const adminRole = (await roleNamed('管理员'))?.roleId;
    expect(
      (await server.request('POST', '/api/user_role', { token: boss, body: { userId: adminId, roleId: devRole } })).body
        .code,
    ).toBe(200);

    const lowered = await saveRole({ roleId: bossRole, roleName: '超级管理员', roleLevel: 50 }, boss);
    expect(lowered.status).toBe(409);
    expect(lowered.body).toEqual({ code: ResultCode.conflict, msg: Messages.lastAdmin, data: null });
    expect((await me(boss)).body.data.roleLevel).toBe(100);

    // With the admin back on the built-in role, the custom role may be lowered; boss stops being an admin.
    expect((await listRoles()).status).toBe(403);
    expect(
      (await server.request('POST', '/api/user_role', { token: boss, body: { userId: adminId, roleId: adminRole } }))
        .body.code,
    ).toBe(200);
    expect((await saveRole({ roleId: bossRole, roleName: '超级管理员', roleLevel: 50 }, boss)).body.code).toBe(200);
    expect((await listRoles('', boss)).status).toBe(403);
  });

  it('plain users cannot list, save or delete roles (403, code 10028)', async () => {
    const { token } = await server.createUser({ username: 'plain', roleLevel: 30 });
    const devRole = (await roleNamed('开发'))?.roleId ?? -1;
    for (const res of [
      await listRoles('', token),
      await saveRole({ roleName: 'mine', roleLevel: 100 }, token),
      await deleteRole(devRole, token),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: ResultCode.noPermission, msg: Messages.noPermission, data: null });
    }
    expect(await roleNamed('mine')).toBeUndefined();
    expect(await roleNamed('开发')).toBeDefined();
  });
});
