import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DeviceMessages,
  ResultCode,
  type DeviceImportFailure,
  type DeviceImportResult,
  type DeviceRow,
} from '@release/contract';
import { binaryPlist, xmlPlist } from '@release/inspect/testing/packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/test-app.ts';

const IPHONE = '00008030-001A2B3C4D5E6F70';
const IPAD = '00008101-000A1B2C3D4E5F60';
const OLD_IPHONE = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const MAC = 'ABCDEF01-2345-6789-ABCD-EF0123456789';

describe.each(testDialects())('device IDs on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let plain: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    plain = (await server.createUser({ username: 'tester', roleLevel: 30 })).token;
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.db.deleteFrom('devices').execute();
  });

  const save = (body: Record<string, unknown>, token = admin) =>
    server.request<{ id: number }>('POST', '/api/udid', { token, body });
  const list = (query = '', token = admin) => server.request<DeviceRow[]>('GET', `/api/udids${query}`, { token });
  const remove = (id: number, token = admin) => server.request('DELETE', `/api/udid?id=${id}`, { token });

  async function importFile(
    content: string | Buffer,
    name = 'devices.txt',
    token = admin,
  ): Promise<ApiResponse<DeviceImportResult & DeviceImportFailure>> {
    const form = new FormData();
    form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
    const response = await fetch(`${server.url}/api/udid/import`, { method: 'POST', headers: { token }, body: form });
    return {
      status: response.status,
      body: (await response.json()) as ApiResponse<DeviceImportResult & DeviceImportFailure>['body'],
    };
  }
  async function exportFile(format: string, token = admin) {
    const response = await fetch(`${server.url}/api/udid/export?format=${format}`, { headers: { token } });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      disposition: response.headers.get('content-disposition'),
      text: Buffer.from(await response.arrayBuffer()).toString('utf8'),
    };
  }
  const udids = async () => (await list('?pageSize=100')).body.data.map((d) => d.udid).sort();

  it('adds devices in one spelling per UDID, lists them newest first, edits and deletes', async () => {
    const phone = await save({ udid: ` ${IPHONE.toLowerCase()} `, deviceName: '测试 iPhone 15', model: 'iPhone 15' });
    expect(phone.body).toEqual({ code: 200, msg: 'success', data: { id: expect.any(Number) } });
    server.clock.advance(1000);
    await save({ udid: OLD_IPHONE.toUpperCase(), deviceName: 'Old iPhone' });
    server.clock.advance(1000);
    await save({ udid: MAC.toLowerCase(), deviceName: 'Build Mac', platform: 'mac' });
    const res = await list();
    expect(res.body.total).toBe(3);
    expect(res.body.data.map((d) => [d.udid, d.deviceName, d.platform])).toEqual([
      [MAC, 'Build Mac', 'mac'],
      [OLD_IPHONE, 'Old iPhone', 'ios'],
      [IPHONE, '测试 iPhone 15', 'ios'],
    ]);
    expect(res.body.data[2]).toMatchObject({ model: 'iPhone 15', createBy: 'admin', remark: '' });

    const edited = await save({
      id: phone.body.data.id,
      udid: IPHONE,
      deviceName: '张三的 iPhone',
      remark: '借给测试组',
    });
    expect(edited.body.code).toBe(200);
    expect((await list('?keyword=张三')).body.data).toEqual([
      expect.objectContaining({ deviceName: '张三的 iPhone', remark: '借给测试组' }),
    ]);
    expect((await list('?keyword=001a2b')).body.data.map((d) => d.udid)).toEqual([IPHONE]);
    expect((await list('?platform=mac')).body.data.map((d) => d.udid)).toEqual([MAC]);
    expect((await list('?pageNo=2&pageSize=2')).body).toMatchObject({
      total: 3,
      data: [expect.objectContaining({ udid: IPHONE })],
    });

    expect((await remove(phone.body.data.id)).body.code).toBe(200);
    expect(await udids()).toEqual([MAC, OLD_IPHONE].sort());
    expect(await remove(phone.body.data.id)).toMatchObject({
      status: 404,
      body: { msg: DeviceMessages.deviceNotFound },
    });
  });

  it('refuses malformed UDIDs, duplicates in any letter case, and bad names', async () => {
    expect(await save({ udid: '1234', deviceName: 'x' })).toMatchObject({
      status: 400,
      body: { msg: DeviceMessages.udidInvalid('ios') },
    });
    expect((await save({ udid: MAC, deviceName: 'Mac as iPhone' })).body.msg).toBe(DeviceMessages.udidInvalid('ios'));
    expect((await save({ udid: OLD_IPHONE, deviceName: 'iPhone as Mac', platform: 'mac' })).body.msg).toBe(
      DeviceMessages.udidInvalid('mac'),
    );
    expect((await save({ udid: IPHONE, deviceName: '' })).body.msg).toContain('请输入设备名称');
    expect((await save({ udid: IPHONE, deviceName: 'x'.repeat(51) })).body.msg).toContain('设备名称不能超过50个字符');
    const first = await save({ udid: IPHONE, deviceName: 'one' });
    const dup = await save({ udid: IPHONE.toLowerCase(), deviceName: 'two' });
    expect(dup).toMatchObject({
      status: 409,
      body: { code: ResultCode.conflict, msg: DeviceMessages.udidExists(IPHONE) },
    });
    const other = await save({ udid: IPAD, deviceName: 'iPad' });
    expect((await save({ id: other.body.data.id, udid: IPHONE, deviceName: 'iPad' })).status).toBe(409);
    expect((await save({ id: 99999, udid: OLD_IPHONE, deviceName: 'ghost' })).status).toBe(404);
    expect(await udids()).toEqual([IPHONE, IPAD].sort());
    expect(first.body.code).toBe(200);
  });

  it("imports Apple's tab-separated device list; registered UDIDs are left alone and named", async () => {
    const file = `Device ID\tDevice Name\tDevice Platform\n${IPHONE}\tQA iPhone\tios\n\n${OLD_IPHONE.toUpperCase()}\tOld phone\n${MAC}\tBuild Mac\tmac\n`;
    const res = await importFile(file);
    expect(res.body).toEqual({ code: 200, msg: 'success', data: { added: 3, existing: [] } });
    expect(await udids()).toEqual([IPHONE, OLD_IPHONE, MAC].sort());
    const again = await importFile(`Device ID\tDevice Name\n${IPAD}\tQA iPad\n${IPHONE.toLowerCase()}\tSame phone\n`);
    expect(again.body.data).toEqual({ added: 1, existing: [{ line: 3, udid: IPHONE }] });
    expect((await list(`?keyword=${IPHONE}`)).body.data[0]?.deviceName).toBe('QA iPhone');
  });

  it('refuses the whole file when a line is bad, naming every bad line', async () => {
    const file = [
      'Device ID\tDevice Name\tDevice Platform',
      `${IPHONE}\tGood phone\tios`,
      'not-a-udid\tBroken\tios',
      `${IPAD}\tiPad\tandroid`,
      `${IPHONE.toLowerCase()}\tSame phone again\tios`,
      `${OLD_IPHONE}`,
      `${MAC}\t\tmac`,
    ].join('\n');
    const res = await importFile(file);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(ResultCode.badRequest);
    expect(res.body.msg).toBe(
      `导入失败，未导入任何设备：第 3 行：${DeviceMessages.udidInvalid('ios')}：not-a-udid（共 5 处错误）`,
    );
    expect(res.body.data.errors).toEqual([
      { line: 3, message: `${DeviceMessages.udidInvalid('ios')}：not-a-udid` },
      { line: 4, message: DeviceMessages.linePlatform },
      { line: 5, message: DeviceMessages.lineDuplicate(2) },
      { line: 6, message: DeviceMessages.lineFields },
      { line: 7, message: DeviceMessages.lineName },
    ]);
    expect(await udids()).toEqual([]);
  });

  it('imports CSV (quoted names, a header, a BOM) and reports CSV lines', async () => {
    const csv = `\uFEFFudid,name,platform\r\n${IPHONE},"张三, 测试机",ios\r\n"${MAC}",Build Mac,mac\r\n`;
    expect((await importFile(csv, 'devices.csv')).body.data).toEqual({ added: 2, existing: [] });
    expect((await list('?keyword=张三')).body.data.map((d) => d.deviceName)).toEqual(['张三, 测试机']);
    const bad = await importFile(`${IPAD},iPad\n${IPAD.slice(0, -1)},Broken iPad\n`, 'more.csv');
    expect(bad.body.data.errors).toEqual([
      { line: 2, message: `${DeviceMessages.udidInvalid('ios')}：${IPAD.slice(0, -1)}` },
    ]);
  });

  it("imports Apple's .deviceids plist, XML (with line numbers) or binary", async () => {
    const plist = (devices: Array<Record<string, string>>) => ({ 'Device UDIDs': devices });
    const xml = xmlPlist(
      plist([
        { deviceIdentifier: IPHONE, deviceName: 'QA iPhone', devicePlatform: 'ios' },
        { deviceIdentifier: 'bad', deviceName: 'Bad', devicePlatform: 'ios' },
      ]),
    );
    const refused = await importFile(xml, 'devices.deviceids');
    const badLine = xml
      .toString('utf8')
      .split('\n')
      .findIndex((line) => line.includes('<string>bad</string>'));
    expect(refused.body.data.errors).toEqual([{ line: badLine, message: `${DeviceMessages.udidInvalid('ios')}：bad` }]);
    const ok = await importFile(
      binaryPlist(plist([{ deviceIdentifier: MAC, deviceName: 'Mac', devicePlatform: 'mac' }])),
      'devices.deviceids',
    );
    expect(ok.body.data).toEqual({ added: 1, existing: [] });
  });

  it('refuses unreadable, empty and oversized files', async () => {
    expect((await importFile(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), 'x.png')).body.msg).toBe(
      DeviceMessages.fileUnreadable,
    );
    expect((await importFile('Device ID\tDevice Name\tDevice Platform\n')).body.msg).toBe(DeviceMessages.fileEmpty);
    const big = await importFile(Buffer.alloc(1024 * 1024 + 1, 0x41));
    expect(big).toMatchObject({ status: 413, body: { code: ResultCode.tooLarge, msg: DeviceMessages.fileTooLarge } });
    expect((await server.request('POST', '/api/udid/import', { token: admin, body: {} })).body.msg).toBe(
      DeviceMessages.fileMissing,
    );
  });

  it("exports Apple's text, CSV and .deviceids; an exported file imports again without changes", async () => {
    await save({ udid: IPHONE, deviceName: 'QA\tiPhone' });
    server.clock.advance(1000);
    await save({ udid: MAC, deviceName: '张三, Mac', platform: 'mac' });
    const txt = await exportFile('txt');
    expect(txt).toMatchObject({
      status: 200,
      type: 'text/plain; charset=utf-8',
      disposition: 'attachment; filename="devices.txt"',
    });
    expect(txt.text).toBe(
      `Device ID\tDevice Name\tDevice Platform\n${IPHONE}\tQA iPhone\tios\n${MAC}\t张三, Mac\tmac\n`,
    );
    const csv = await exportFile('csv');
    expect(csv.type).toBe('text/csv; charset=utf-8');
    expect(csv.text).toBe(
      `\uFEFFDevice ID,Device Name,Device Platform\n${IPHONE},QA\tiPhone,ios\n${MAC},"张三, Mac",mac\n`,
    );
    const plist = await exportFile('deviceids');
    expect(plist.text).toMatch(
      new RegExp(
        `<key>deviceIdentifier</key>\\s*<string>${MAC}</string>\\s*<key>deviceName</key>\\s*<string>张三, Mac</string>`,
      ),
    );
    for (const [content, name] of [
      [txt.text, 'a.txt'],
      [csv.text, 'a.csv'],
      [plist.text, 'a.deviceids'],
    ] as const) {
      expect((await importFile(content, name)).body.data).toEqual({
        added: 0,
        existing: [expect.objectContaining({ udid: IPHONE }), expect.objectContaining({ udid: MAC })],
      });
    }
    expect((await exportFile('pdf')).status).toBe(400);
  });

  it('is for admins only', async () => {
    expect((await list('', plain)).body.code).toBe(ResultCode.noPermission);
    expect((await save({ udid: IPHONE, deviceName: 'x' }, plain)).body.code).toBe(ResultCode.noPermission);
    expect((await remove(1, plain)).body.code).toBe(ResultCode.noPermission);
    expect((await importFile(`${IPHONE}\tx\n`, 'a.txt', plain)).status).toBe(403);
    expect((await exportFile('txt', plain)).status).toBe(403);
    expect(await udids()).toEqual([]);
  });
});
