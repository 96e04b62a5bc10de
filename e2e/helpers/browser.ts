import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { watchCsp } from './csp.ts';
import { E2E_ADMIN } from './server-process.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** One Chromium per test process and set of arguments: the browser files of a worker share it (isolate: false). */
const running = new Map<string, Promise<Browser>>();

/**
 * A Chromium for a test file. Files share one per test process (each scenario works in contexts of its own, which
 * share no cookies or storage): starting Chromium took 1–2 s of a loaded machine's CPU per file. The file's
 * `close()` closes the contexts it left open and keeps the browser for the next file; a browser that went away
 * (a crash) is started again; Chromium exits with the test process (its pipe to Playwright closes). `extraArgs`: e.g. `--host-resolver-rules=MAP release.test 127.0.0.1` to reach a site
 * behind the test's nginx.
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const key = extraArgs.join('\n');
  let browser = await running.get(key)?.catch(() => undefined);
  if (!browser?.isConnected()) {
    const launching = chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extraArgs] }).then((launched) => {
      launched.close = async () => {
        await Promise.all(launched.contexts().map((context) => context.close()));
      };
      return launched;
    });
    running.set(key, launching);
    browser = await launching;
  }
  return browser;
}

/** Safari on an iPhone and on an iPad, for pages that offer iOS-only steps (device registration). */
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
/** HarmonyOS NEXT's browser (ArkWeb on a Mate phone). */
export const HARMONY_UA =
  'Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile';
export const IPAD_UA =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = { width: 1280, height: 800 },
  userAgent?: string,
  /** For a site behind the test's nginx, whose certificate is the test's own. */
  ignoreHTTPSErrors = false,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport,
    locale: 'zh-CN',
    // The console turns antd's animations off for it (providers.tsx): a scenario waits for no transition.
    reducedMotion: 'reduce',
    ignoreHTTPSErrors,
    ...(userAgent ? { userAgent } : {}),
  });
  context.setDefaultTimeout(15_000);
  await watchCsp(context);
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the login page (the e2e admin unless told otherwise) and waits for the app list. */
export async function signIn(page: Page, username = E2E_ADMIN.username, password = E2E_ADMIN.password): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/home\/app/);
}
