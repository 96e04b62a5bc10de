import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../api-client.ts';
import { configPath, normalizeServer, readConfig, writeConfig } from '../config.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import type { Io, Output } from '../output.ts';
import { text } from '../messages.ts';

/** How long the terminal waits for the browser to come back from Lark. */
export const LARK_LOGIN_TIMEOUT_MS = 5 * 60_000;

const PAGE = (text: string) =>
  `<!doctype html><meta charset="utf-8"><title>release-cli</title><p style="font:16px sans-serif;margin:40px">${text}</p>`;

/** Opens `url` in the desktop's browser when one can be found; the URL is printed either way. */
function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer.exe' : 'xdg-open';
  try {
    spawn(command, [url], { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref();
  } catch {
    // No browser here (a server over ssh): the printed URL is enough.
  }
}

/**
 * `release-cli login --lark`: a loopback listener takes the Lark code that the web page hands over
 * (state terminal_login.<port>.…), checks the state is the one this run asked for, trades the code for a
 * session and stores it like a token.
 */
export async function larkLoginCommand(
  cmd: { server?: string; browser: boolean; timeoutMs?: number },
  io: Io,
  out: Output,
): Promise<void> {
  const file = configPath(io.env);
  const rawServer = cmd.server || io.env.RELEASE_SERVER || readConfig(file).server;
  if (!rawServer) throw new CliError(ExitCode.usage, text.noServer);
  const server = normalizeServer(rawServer);
  const anonymous = createApiClient({ server, token: '' });

  let expectedState = '';
  let settle: (result: { code: string; state: string } | Error) => void = () => undefined;
  const returned = new Promise<{ code: string; state: string } | Error>((resolve) => (settle = resolve));
  const listener = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return void res.writeHead(404).end();
    const state = url.searchParams.get('state') ?? '';
    const code = url.searchParams.get('code');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (state !== expectedState) return void res.end(PAGE(text.pageForeign));
    if (!code) {
      res.end(PAGE(text.pageDeclined));
      return settle(new CliError(ExitCode.auth, text.larkDeclined));
    }
    res.end(PAGE(text.pageDone));
    settle({ code, state });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const timer = setTimeout(
    () =>
      settle(
        new CliError(ExitCode.auth, text.browserTimeout(Math.round((cmd.timeoutMs ?? LARK_LOGIN_TIMEOUT_MS) / 1000))),
      ),
    cmd.timeoutMs ?? LARK_LOGIN_TIMEOUT_MS,
  );
  try {
    const { port } = listener.address() as AddressInfo;
    const { url, state } = await anonymous.larkLoginUrl(port);
    expectedState = state;
    out.info(text.openToSignIn(url));
    if (cmd.browser) openBrowser(url);
    const result = await returned;
    if (result instanceof Error) throw result;
    const login = await anonymous.larkLogin(result.code, result.state);
    writeConfig(file, { server, token: login.token });
    out.info(text.signedIn(server, login.username, file));
    out.result({ ok: true, server, username: login.username, config: file });
  } finally {
    clearTimeout(timer);
    listener.close();
  }
}
