import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { clickAtRest, expectToast, settled } from './antd.ts';

const EMPTY = '还没有鸿蒙签名证书';

/** 证书管理 › 鸿蒙签名证书 as an admin reaches it; answers the tab's section. */
export async function openHarmonyCertificates(page: Page): Promise<Locator> {
  await page.goto('/home/setting/certification');
  await page.getByRole('tab', { name: '鸿蒙签名证书' }).click();
  const section = page.getByTestId('harmony-cert-section');
  await section.waitFor();
  return section;
}

/** Waits until the tab's list has loaded, is empty and says so (a list still loading proves nothing). */
async function expectNoCertificates(page: Page): Promise<void> {
  const table = page.getByTestId('harmony-cert-table');
  await expect
    .poll(async () => [
      await table.locator('.ant-spin-spinning').count(),
      await table.locator('tbody tr.ant-table-row').count(),
    ])
    .toEqual([0, 0]);
  await page.getByTestId('harmony-cert-section').getByText(EMPTY).waitFor();
}

/**
 * Uploads a HarmonyOS .p12 through the tab (open, and empty) as an admin does: with `wrongPassword` first, which shows
 * 证书密码错误 and stores nothing (the tab, opened again, is still empty), then with `password`: 上传成功, the modal
 * closes, and the row is listed. Answers the row.
 */
export async function uploadHarmonyCertificate(
  page: Page,
  p12File: string,
  passwords: { wrongPassword: string; password: string },
): Promise<Locator> {
  const submit = async (password: string) => {
    await page.getByTestId('harmony-cert-section').getByTestId('harmony-cert-upload').click();
    const modal = page.getByTestId('harmony-cert-upload-modal');
    // The HarmonyOS upload asks for the .p12 and its password only.
    expect(await modal.locator('input[type=file][accept=".mobileprovision"]').count()).toBe(0);
    await modal.locator('input[type=file][accept=".p12,.pfx"]').setInputFiles(p12File);
    await modal.getByTestId('harmony-cert-password').fill(password);
    await clickAtRest(page.getByTestId('harmony-cert-upload-submit'));
    return modal;
  };
  await expectNoCertificates(page);
  await submit(passwords.wrongPassword);
  await expectToast(page, '证书密码错误');
  await openHarmonyCertificates(page);
  await expectNoCertificates(page);
  const modal = await submit(passwords.password);
  await expectToast(page, '上传成功');
  await modal.waitFor({ state: 'hidden' });
  const rows = page.getByTestId('harmony-cert-table').locator('tbody tr.ant-table-row');
  await expect.poll(() => rows.count()).toBe(1);
  return rows;
}

/** Deletes a listed certificate through its 删除 and the confirmation; waits until the tab says it has none. */
export async function deleteHarmonyCertificate(page: Page, row: Locator): Promise<void> {
  await row.getByTestId('harmony-cert-delete').click();
  await settled(page, '.ant-popconfirm').locator('.ant-btn-primary').click();
  await expectToast(page, '删除成功');
  await expectNoCertificates(page);
}

/** A day as the certificate tables write it (YYYY-MM-DD, local time). */
export function certificateDay(time: Date): string {
  return `${time.getFullYear()}-${String(time.getMonth() + 1).padStart(2, '0')}-${String(time.getDate()).padStart(2, '0')}`;
}
