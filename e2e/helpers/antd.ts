import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * An antd popup (Select dropdown, Dropdown menu, Popconfirm) on screen and at rest: a click while it still slides or
 * zooms in (classes *-appear, *-enter) can be lost on a loaded machine, and one that is closing (*-leave) is not meant.
 */
export const SETTLED = ':visible:not([class*="-appear"]):not([class*="-enter"]):not([class*="-leave"])';

/** The popup matched by `css` (e.g. '.ant-dropdown', '.ant-popconfirm') once it has opened. */
export function settled(page: Page, css: string): Locator {
  return page.locator(`${css}${SETTLED}`);
}

/**
 * Waits until `target` is no longer inside something still moving in (a modal zooming in from the click, a drawer
 * sliding in, a popup appearing): a click computed from a box that is still moving can land beside the target.
 */
async function atRest(target: Locator): Promise<void> {
  await expect
    .poll(() => target.evaluate((el) => el.closest('[class*="-appear"], [class*="-enter"]') === null))
    .toBe(true);
}

/** Clicks `target` once it is at rest (see atRest). */
export async function clickAtRest(target: Locator): Promise<void> {
  await atRest(target);
  await target.click();
}

/**
 * Opens the dropdown of an antd Select (unless it is open) and returns it once it has finished opening: the one holding
 * the listbox the select's input controls, so a dropdown of another select that is still closing is never taken.
 */
export async function openDropdown(page: Page, select: Locator): Promise<Locator> {
  const input = select.locator('input[role=combobox]');
  if ((await input.getAttribute('aria-expanded')) !== 'true') await clickAtRest(select);
  await expect.poll(() => input.getAttribute('aria-controls')).toBeTruthy();
  const listbox = (await input.getAttribute('aria-controls')) ?? '';
  return settled(page, '.ant-select-dropdown').filter({ has: page.locator(`[id="${listbox}"]`) });
}

/**
 * Picks the option of an antd Select (single or multiple) whose text is `text` (exactly, or containing it with
 * exact: false) once its dropdown has opened, and waits until the select shows the choice (`shows`, or the text).
 * A multiple select's dropdown stays open afterwards, as for a user.
 */
export async function pickOption(
  page: Page,
  select: Locator,
  text: string,
  options: { exact?: boolean; shows?: string } = {},
): Promise<void> {
  const dropdown = await openDropdown(page, select);
  await dropdown
    .locator('.ant-select-item-option')
    .filter({ has: page.getByText(text, { exact: options.exact ?? true }) })
    .click();
  await expect.poll(() => select.innerText()).toContain(options.shows ?? text);
}

/** The texts of the toasts (antd message) on screen now, [] when none: answers at once, whether or not one shows. */
export async function toasts(page: Page): Promise<string[]> {
  return page.locator('.ant-message-notice').allInnerTexts();
}

/**
 * Waits until a toast containing `text` is on screen. A toast proves only its wording: the same text is not shown twice
 * within 3 s (SPEC §8), so one from an earlier action may answer; prove what an action did by what stays on screen.
 */
export async function expectToast(page: Page, text: string, options: { timeout?: number } = {}): Promise<void> {
  await expect.poll(() => toasts(page), options).toContainEqual(expect.stringContaining(text));
}

/**
 * Records every toast (antd message) the page shows from now on. A toast lasts 3 s; on a loaded machine a poll can
 * miss one that came and went between two reads, so checks of a toast that follows a click record first, then wait
 * with expectToastShown.
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __toasts?: string[] };
    if (w.__toasts) return;
    const seen: string[] = [];
    w.__toasts = seen;
    const read = () => {
      document.querySelectorAll<HTMLElement>('.ant-message-notice').forEach((notice) => {
        const text = notice.innerText.trim();
        if (text && !seen.includes(text)) seen.push(text);
      });
    };
    new MutationObserver(read).observe(document.body, { childList: true, subtree: true, characterData: true });
    read();
  });
}

/** Waits until a toast containing `text` was shown since recordToasts (it may be gone by now). */
export async function expectToastShown(page: Page, text: string): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __toasts?: string[] }).__toasts ?? []))
    .toContainEqual(expect.stringContaining(text));
}
