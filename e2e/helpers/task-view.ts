import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { pickOption, toasts } from './antd.ts';

/** The text of the toasts on screen ('' when none), at once (prefer expectToast from ./antd.ts). */
export async function toastText(page: Page): Promise<string> {
  return (await toasts(page)).join('\n');
}

/** Picks an option of an antd Select in the task drawer by its exact text (see pickOption). */
export async function pick(page: Page, testId: string, text: string): Promise<void> {
  await pickOption(page, page.getByTestId('task-drawer').getByTestId(testId), text);
}

/** A task's time range as the drawer's RangePicker shows it (local time) and as the API carries it (ms). */
export interface TaskRange {
  start: string;
  end: string;
  startAt: number;
  due: number;
}

/**
 * A range ahead of the wall clock, as a new task's usually is: from 09:00 tomorrow to 18:00 four days after
 * (the browser and the test share the machine's time zone).
 */
export function upcomingRange(now = new Date()): TaskRange {
  const at = (days: number, hour: number) =>
    new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, hour, 0, 0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  const text = (d: Date) =>
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const start = at(1, 9);
  const due = at(5, 18);
  return { start: text(start), end: text(due), startAt: start.getTime(), due: due.getTime() };
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

/**
 * Clicks 刷新任务列表 and waits until it is done as the user sees it: Lark has answered (/api/lark_refresh) and the
 * list read after it is on screen. Opening a row before that would show the row as it was before the refresh.
 */
export async function refreshTasks(page: Page): Promise<void> {
  let synced = false;
  const listed = page.waitForResponse((res) => {
    if (res.url().endsWith('/api/lark_refresh')) synced = true;
    return synced && res.url().endsWith('/api/tasks');
  });
  await page.getByTestId('task-refresh').click();
  await listed;
  await expect.poll(() => page.getByTestId('task-table').locator('.ant-spin-spinning').count()).toBe(0);
}
