import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The text of the toasts on screen ('' when none). */
export async function toastText(page: Page): Promise<string> {
  return page.locator('.ant-message').innerText().catch(() => '');
}

/** Picks an option of an antd Select in the task drawer by its text. */
export async function pick(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId('task-drawer').getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible').getByText(text, { exact: true }).click();
}

/** Types both ends of the task drawer's RangePicker and confirms each. */
export async function chooseRange(page: Page, start: string, end: string): Promise<void> {
  const inputs = page.getByTestId('task-drawer').locator('.ant-picker-range input');
  await inputs.nth(0).click();
  await inputs.nth(0).fill(start);
  await inputs.nth(0).press('Enter');
  await inputs.nth(1).fill(end);
  await inputs.nth(1).press('Enter');
  await expect.poll(() => inputs.nth(1).inputValue()).toBe(end);
}
