import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
}
interface OpenApiDocument {
  info: { title: string; description?: string };
  security?: unknown[];
  components?: { securitySchemes?: Record<string, { description?: string }> };
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head']);
const CHINESE = /[\u4e00-\u9fff]/;
const unconfigured = 'http://127.0.0.1:9';

/** Every operation of the document as `METHOD /path` with its entry. */
function operationsOf(doc: OpenApiDocument): Array<[string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
  );
}

describe.each(testDialects())('the API documentation at /api/docs on %s', (dialect) => {
  let server: TestServer;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    // Lark, WeCom and the Lark event keys configured, so the routes that only exist with them are documented too.
    server = await startTestServer(dialect, {
      lark: {
        appId: 'cli_docs',
        appSecret: 'secret',
        openBaseUrl: unconfigured,
        accountsBaseUrl: unconfigured,
        passportBaseUrl: unconfigured,
      },
      wecom: {
        corpId: 'corp',
        agentId: '1000002',
        secret: 'secret',
        baseUrl: unconfigured,
        loginBaseUrl: unconfigured,
      },
      larkEvents: { verificationToken: 'verify', encryptKey: null },
    });
    const response = await fetch(`${server.url}/api/docs/json`);
    expect(response.status).toBe(200);
    doc = (await response.json()) as OpenApiDocument;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('gives every operation a Chinese summary and description', () => {
    const operations = operationsOf(doc);
    // Every /api route the server registered is in the document (none escapes the check by being left out).
    expect(operations.length).toBeGreaterThanOrEqual(server.built.routes.length);
    const lacking = operations.flatMap(([name, op]) => {
      const problems = [
        !op.summary?.trim() ? '没有 summary' : !CHINESE.test(op.summary) ? `summary 不是中文：${op.summary}` : null,
        !op.description?.trim()
          ? '没有 description'
          : !CHINESE.test(op.description)
            ? `description 不是中文：${op.description}`
            : null,
      ].filter((p): p is string => p !== null);
      return problems.map((p) => `${name}：${p}`);
    });
    expect(lacking, lacking.join('\n')).toEqual([]);
  });

  it('keeps summaries short: one line, no longer than 30 characters', () => {
    const long = operationsOf(doc).filter(
      ([, op]) => op.summary && (op.summary.length > 30 || op.summary.includes('\n')),
    );
    expect(long.map(([name, op]) => `${name}：${op.summary}`)).toEqual([]);
  });

  it('files every operation under a tag declared with a Chinese description', () => {
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
    for (const [name, description] of declared) expect(description, `标签 ${name} 的说明`).toMatch(CHINESE);
    const untagged = operationsOf(doc).flatMap(([name, op]) => {
      if (!op.tags?.length) return [`${name}：没有标签`];
      return op.tags.filter((tag) => !declared.has(tag)).map((tag) => `${name}：标签「${tag}」未在 openApiTags 中声明`);
    });
    expect(untagged, untagged.join('\n')).toEqual([]);
  });

  it('describes the API itself in Chinese: the envelope, the token and the roles', () => {
    expect(doc.info.title).toBe('发布系统 API');
    expect(doc.info.description).toMatch(CHINESE);
    expect(doc.info.description).toContain('{code, msg, data}');
    expect(doc.info.description).toContain('token');
    expect(doc.info.description).toContain('100');
  });

  it('asks for the token header or a Bearer token, optional on the operations open to anyone', () => {
    expect(doc.security).toEqual([{ token: [] }, { bearer: [] }]);
    for (const scheme of Object.values(doc.components?.securitySchemes ?? {}))
      expect(scheme.description).toMatch(CHINESE);
    const openToAnyone = new Set(
      server.built.routes
        .filter((r) => r.access === 'public')
        .map((r) => `${r.method} ${r.url.replace(/\*$/, '{*}').replace(/:(\w+)/g, '{$1}')}`),
    );
    expect(openToAnyone).toContain('POST /api/user/login');
    for (const [name, op] of operationsOf(doc)) {
      if (openToAnyone.has(name)) expect(op.security, name).toEqual([{}, { token: [] }, { bearer: [] }]);
      else expect(op.security, name).toBeUndefined();
    }
  });

  it('serves Swagger UI for the document', async () => {
    const ui = await fetch(`${server.url}/api/docs/`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });
});
