/**
 * What the public install page needs at run time, without zod: the install entry of the web app imports this file
 * alone (`@release/contract/install-page`) and only types from the rest, so its bundle stays small.
 */
export { ResultCode } from './errors.ts';
export * from './package-kinds.ts';

/** SPEC §4: a package is expired when its expireDate is not later than now. */
export function isPackageExpired(expireDate: number | null, now: number): boolean {
  return expireDate !== null && expireDate <= now;
}

/** Where the install page remembers this phone's UDID once it registered itself. */
export const DEVICE_UDID_STORAGE_KEY = 'release:device-udid';

export const InstallMessages = {
  passwordRequired: '请输入安装密码',
  passwordWrong: '安装密码错误',
  /** Too many wrong passwords from this address: when the next try is taken, in whole minutes (at least 1). */
  tooManyTries: (minutes: number) => `密码错误次数过多，请 ${minutes} 分钟后再试`,
  /** A remembered pass made with an earlier install password: the password has changed since. */
  passwordChanged: '安装密码已更改，请输入新的安装密码',
  appMissing: '下载地址不存在，请确认链接是否正确',
  /** /package/<publicPath> while the app's editors have the password-free link turned off. */
  publicClosed: '该免密下载链接已关闭，请向应用负责人索取新的下载链接',
} as const;

/**
 * What the server writes into install.html for a link (`<script type="application/json" id="install-boot">`, data
 * only): whether the link is the password page, the open public one, a closed public one or nothing, and the app's name.
 */
export interface InstallBoot {
  link: 'password' | 'public' | 'closed' | 'missing';
  message: string | null;
  app: { appName: string; appIcon: string | null; path: string } | null;
}
