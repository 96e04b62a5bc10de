import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

describe.each(testDialects())('error envelope and API docs on %s', (dialect) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    token = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers bad JSON with 400 and a clear message, never a stack trace', async () => {
    const res = await server.request('POST', '/api/category', {
      token,
      rawBody: '{"categoryName": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, msg: Messages.badJson, data: null });
  });

  it('names the field and the reason when a value has the wrong type', async () => {
    const res = await server.request('POST', '/api/role', { token, body: { roleName: 'QA', roleLevel: 'high' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toMatch(/^参数错误：roleLevel /);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('answers an unknown API route with a 404 envelope', async () => {
    const res = await server.request('GET', '/api/does_not_exist', { token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, data: null });
    expect(res.body.msg).toContain('/api/does_not_exist');
  });

  it('refuses a body over 1 MB with 413', async () => {
    const res = await server.request('POST', '/api/category', {
      token,
      body: { categoryName: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(res.status).toBe(413);
    expect(res.body.msg).toBe(Messages.bodyTooLarge);
  });

  it('serves the OpenAPI document generated from the validation schemas', async () => {
    const response = await fetch(`${server.url}/api/docs/json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown; parameters?: Array<{ name: string }> }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    // Fastify's wildcard `*` is written `{*}` in OpenAPI.
    for (const route of server.built.routes) {
      const openApiPath = route.url.replace(/\*$/, '{*}').replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[openApiPath]?.[route.method.toLowerCase()], `${route.method} ${route.url}`).toBeDefined();
    }
    expect(doc.paths['/api/roles']?.get?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['pageNo', 'pageSize']),
    );
    expect(doc.paths['/api/user/login']?.post?.requestBody).toBeDefined();
    const ui = await fetch(`${server.url}/api/docs`);
    expect(ui.status).toBe(200);
  });
});
