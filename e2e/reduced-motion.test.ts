import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';

/** The system's "reduce motion" setting turns antd's animations off in the console (providers.tsx); nothing else. */
describe('a user who asked the system for less motion', () => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [reducedMotion, animated] of [
    ['reduce', false],
    ['no-preference', true],
  ] as const) {
    it(`prefers-reduced-motion: ${reducedMotion} — the 新建应用 dialog opens ${animated ? 'with' : 'without'} antd's zoom and fade`, async () => {
      const { context, page } = await newPage(browser, server.url, { width: 1280, height: 800 });
      await page.emulateMedia({ reducedMotion });
      await signIn(page);
      // The classes of a running zoom or fade (its start and active phases) antd puts on an element while the dialog
      // opens, added with it or set on it after. Without motion the dialog is only prepared for one, and shown as is.
      await page.evaluate(() => {
        const seen: string[] = [];
        const note = (element: Element) => {
          for (const name of Array.from(element.classList))
            if (/^ant-(zoom|fade)-(appear|enter)-(start|active)$/.test(name)) seen.push(name);
        };
        new MutationObserver((records) => {
          for (const record of records) {
            if (record.type === 'attributes' && record.target instanceof Element) note(record.target);
            for (const node of Array.from(record.addedNodes)) {
              if (!(node instanceof Element)) continue;
              note(node);
              for (const inner of Array.from(node.querySelectorAll('*'))) note(inner);
            }
          }
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
        (window as unknown as { motionSeen: string[] }).motionSeen = seen;
      });
      await page.getByTestId('empty-add-app').click();
      await page.getByTestId('app-save').waitFor();
      const seen = await page.evaluate(() => (window as unknown as { motionSeen: string[] }).motionSeen);
      if (animated)
        expect(seen).toEqual(expect.arrayContaining([expect.stringMatching(/^ant-zoom-appear-(start|active)$/)]));
      else expect(seen).toEqual([]);
      await context.close();
    });
  }
});
