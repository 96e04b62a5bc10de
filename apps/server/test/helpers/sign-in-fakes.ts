import { FakeClock, startLarkFake, startWecomFake, type LarkFake, type WecomFake } from '@release/fakes';
import type { DialectName } from '../../src/db/database.ts';
import { startTestServer, type ApiResponse, type TestServer, type TestServerOptions } from './test-app.ts';

/** A test server whose Lark and WeCom apps live on the loopback fakes (tools/fakes). */
export interface SignInWorld {
  server: TestServer;
  lark: LarkFake;
  wecom: WecomFake;
  close(): Promise<void>;
}

export async function startSignInWorld(dialect: DialectName, options: TestServerOptions = {}): Promise<SignInWorld> {
  const clock = new FakeClock({ frozen: true });
  const lark = await startLarkFake({ clock });
  const wecom = await startWecomFake({ clock });
  const server = await startTestServer(dialect, {
    ...options,
    lark: {
      appId: lark.app.appId,
      appSecret: lark.app.appSecret,
      openBaseUrl: lark.url,
      accountsBaseUrl: lark.url,
      passportBaseUrl: lark.url,
    },
    wecom: {
      corpId: wecom.corp.corpId,
      agentId: wecom.corp.agentId,
      secret: wecom.corp.secret,
      baseUrl: wecom.url,
      loginBaseUrl: wecom.url,
    },
  });
  return {
    server,
    lark,
    wecom,
    async close() {
      await server.close();
      await lark.close();
      await wecom.close();
    },
  };
}

export interface LoginData {
  userId: number;
  username: string;
  roleLevel: number;
  token: string;
  tokenTime: number;
}

/**
 * One browser: it keeps the cookies the server sets (the sign-in binding) and sends them back, and follows
 * an authorize page's redirect by hand, as a browser would, so the test sees where it lands.
 */
export class TestBrowser {
  private cookies = new Map<string, string>();

  constructor(private readonly server: TestServer) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async api<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = this.cookieHeader;
    if (options.token) headers.token = options.token;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.server.url}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      this.cookies.set(name.trim(), value.join('='));
    }
    return { status: response.status, body: (await response.json()) as ApiResponse<T>['body'] };
  }

  /** GET /api/user/lark_login_url: the authorize URL and its state. */
  async larkLoginUrl(query = '', token?: string): Promise<{ url: string; state: string; expiresAt: number }> {
    const res = await this.api<{ url: string; state: string; expiresAt: number }>(
      'GET',
      `/api/user/lark_login_url${query}`,
      { token },
    );
    if (res.body.code !== 200) throw new Error(`lark_login_url: ${res.body.msg}`);
    return res.body.data;
  }

  async larkLogin(body: { code: string; state?: string; redirectUri?: string }): Promise<ApiResponse<LoginData>> {
    return this.api<LoginData>('POST', '/api/user/lark_login', { body });
  }
}

/** Visits an authorize / login page and returns where it redirects the browser (with its query parsed). */
export async function visit(url: string): Promise<{ status: number; location: URL | null; text: string }> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  return { status: response.status, location: location ? new URL(location) : null, text: await response.text() };
}

/** The code and state of a redirect back to us; fails the test when the page did not redirect. */
export async function approve(url: string): Promise<{ code: string; state: string; landing: URL }> {
  const result = await visit(url);
  if (!result.location) throw new Error(`no redirect (${result.status}): ${result.text.slice(0, 300)}`);
  return {
    code: result.location.searchParams.get('code') ?? '',
    state: result.location.searchParams.get('state') ?? '',
    landing: result.location,
  };
}
