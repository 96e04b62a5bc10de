import { enUsage, zhUsage } from './usage-text.ts';

/** The CLI's languages: Chinese by default, as the web app; English with `--lang en` or RELEASE_LANG=en. */
export const languages = ['zh', 'en'] as const;
export type Language = (typeof languages)[number];

/** Every text the CLI prints (the server's own messages arrive in Chinese and are shown as they are). */
const zh = {
  ...zhUsage,
  // The command line
  noCommand: '没有给出命令',
  unknownCommand: (name: string) => `未知命令 "${name}"`,
  unknownOption: (option: string) => `未知选项 ${option}`,
  optionNeedsValue: (option: string) => `选项 ${option} 需要一个值`,
  unexpectedArgument: (arg: string) => `多余的参数 "${arg}"`,
  fileMissing: '缺少安装包文件',
  oneFileOnly: '只能给出一个安装包文件；只有同一版本的多个 HarmonyOS 模块（.hap / .hsp）可以一起给出',
  badCommit: (value: string) => `--commit："${value}" 不是提交号（7–64 位十六进制）或 svn 版本号`,
  appRequired: '必须给出 --app <path>',
  notAnAppPath: (value: string) => `--app："${value}" 不是应用路径（字母、数字、- 和 _，最多 32 个）`,
  oneOf: (flag: string, allowed: readonly string[], value: string | undefined) =>
    `${flag} 只能是 ${allowed.join('、')}${value === undefined ? '' : `（收到 "${value}"）`}`,
  larkAndToken: '--lark 和 --token 不能同时使用',
  // Configuration
  cannotRead: (file: string, reason: string) => `无法读取 ${file}：${reason}`,
  notAConfig: (file: string) => `${file} 不是 release-cli 的配置；请重新运行 release-cli login`,
  notAServerUrl: (raw: string) => `不是服务器地址：${raw}`,
  serverScheme: (raw: string) => `服务器地址必须以 http:// 或 https:// 开头：${raw}`,
  noServer: '没有服务器地址：请用 --server 指定、设置 RELEASE_SERVER，或运行 release-cli login',
  noToken: '没有令牌：请设置 RELEASE_TOKEN，或运行 release-cli login --token <token>',
  loginNeedsToken: '没有令牌：请用 --token <token> 指定（用 POST /api/api_token 创建，见 docs/ci-pipelines.md）',
  badRetryDelay: (raw: string) => `RELEASE_RETRY_DELAY_MS 必须是 0 到 60000 之间的整数毫秒：${raw}`,
  badLanguage: (raw: string) => `--lang / RELEASE_LANG 只能是 zh 或 en：${raw}`,
  // The server and the storage
  timedOut: '超时',
  notJson: (what: string, status: number, server: string) =>
    `${what}：HTTP ${status}，回答不是 JSON（${server} 是发布系统吗？）`,
  unexpectedAnswer: (what: string, status: number) => `${what}：HTTP ${status}，回答的格式不对`,
  notTheContract: (what: string) => `${what}：回答与接口约定不符`,
  tokenRefusedHint: '（服务器拒绝了令牌：请检查 RELEASE_TOKEN，或运行 release-cli login）',
  partFailed: (partNo: number, reason: string) => `分片 ${partNo}：${reason}`,
  partStatus: (partNo: number, status: number) => `分片 ${partNo}：存储返回 HTTP ${status}`,
  partNoEtag: (partNo: number) => `分片 ${partNo}：存储的回答没有 ETag`,
  // Commands
  noSuchFile: (file: string) => `文件不存在：${file}`,
  notAFile: (file: string) => `不是文件：${file}`,
  emptyFile: (file: string) => `文件是空的：${file}`,
  noSuchApp: (path: string) => `没有路径为 "${path}" 的应用（或令牌的用户对它没有权限）`,
  noVersionToCompare: '--skip-existing：安装包里没有可比较的版本号，照常上传',
  alreadyPublished: (appName: string, version: string) => `${appName}：${version} 已发布，未上传`,
  keysMissing: '服务器没有发放所需的上传密钥',
  checking: '服务器正在检查安装包…',
  published: (appName: string, version: string) => `已发布 ${appName}：${version}`,
  warning: (text: string) => `警告：${text}`,
  noVersionYet: (app: string, platform: string) => `${app} 还没有 ${platform} 版本`,
  uploadedAt: (iso: string, by: string | null) => `上传于 ${iso}${by ? `，上传者 ${by}` : ''}`,
  signedIn: (server: string, username: string, file: string) => `已登录 ${server}，用户 ${username}；保存在 ${file}`,
  openToSignIn: (url: string) => `在浏览器中打开此地址，用飞书登录：\n  ${url}`,
  larkDeclined: '飞书登录被拒绝',
  browserTimeout: (seconds: number) => `${seconds} 秒内浏览器没有回应`,
  pageForeign: '这不是本次命令行登录的请求，已忽略。',
  pageDeclined: '你已取消飞书授权，命令行未登录。',
  pageDone: '已把飞书授权交给命令行，可以关闭此页面。',
};

export type Messages = typeof zh;

const en: Messages = {
  ...enUsage,
  noCommand: 'no command given',
  unknownCommand: (name) => `unknown command "${name}"`,
  unknownOption: (option) => `unknown option ${option}`,
  optionNeedsValue: (option) => `option ${option} needs a value`,
  unexpectedArgument: (arg) => `unexpected argument "${arg}"`,
  fileMissing: 'the package file is missing',
  oneFileOnly: 'give exactly one package file; only the modules of one HarmonyOS version (.hap / .hsp) go together',
  badCommit: (value) => `--commit: "${value}" is not a commit id (7–64 hex digits) or an svn revision`,
  appRequired: '--app <path> is required',
  notAnAppPath: (value) => `--app: "${value}" is not an app path (letters, digits, - and _, at most 32)`,
  oneOf: (flag, allowed, value) =>
    `${flag} must be one of ${allowed.join(', ')}${value === undefined ? '' : ` (got "${value}")`}`,
  larkAndToken: '--lark and --token exclude each other',
  cannotRead: (file, reason) => `cannot read ${file}: ${reason}`,
  notAConfig: (file) => `${file} is not a release-cli config; run release-cli login again`,
  notAServerUrl: (raw) => `not a server URL: ${raw}`,
  serverScheme: (raw) => `the server URL must start with http:// or https://: ${raw}`,
  noServer: 'no server: pass --server, set RELEASE_SERVER or run release-cli login',
  noToken: 'no token: set RELEASE_TOKEN or run release-cli login --token <token>',
  loginNeedsToken: 'no token: pass --token <token> (create one with POST /api/api_token, see docs/ci-pipelines.md)',
  badRetryDelay: (raw) => `RELEASE_RETRY_DELAY_MS must be a whole number of ms from 0 to 60000: ${raw}`,
  badLanguage: (raw) => `--lang / RELEASE_LANG must be zh or en: ${raw}`,
  timedOut: 'timed out',
  notJson: (what, status, server) => `${what}: HTTP ${status} without a JSON answer (is ${server} the release system?)`,
  unexpectedAnswer: (what, status) => `${what}: HTTP ${status} with an unexpected answer`,
  notTheContract: (what) => `${what}: the answer does not match the contract`,
  tokenRefusedHint: ' (the server refused the token: check RELEASE_TOKEN, or run release-cli login)',
  partFailed: (partNo, reason) => `part ${partNo}: ${reason}`,
  partStatus: (partNo, status) => `part ${partNo}: HTTP ${status} from the storage`,
  partNoEtag: (partNo) => `part ${partNo}: the storage answered without an ETag`,
  noSuchFile: (file) => `no such file: ${file}`,
  notAFile: (file) => `not a file: ${file}`,
  emptyFile: (file) => `the file is empty: ${file}`,
  noSuchApp: (path) => `no app with the path "${path}" (or its token's user has no permit on it)`,
  noVersionToCompare: '--skip-existing: the package carries no version to compare; uploading it',
  alreadyPublished: (appName, version) => `${appName}: ${version} is already published; nothing uploaded`,
  keysMissing: 'the server did not issue the upload keys asked for',
  checking: 'Checking the package on the server...',
  published: (appName, version) => `Published ${appName}: ${version}`,
  warning: (text) => `warning: ${text}`,
  noVersionYet: (app, platform) => `${app} has no ${platform} version yet`,
  uploadedAt: (iso, by) => `uploaded ${iso}${by ? ` by ${by}` : ''}`,
  signedIn: (server, username, file) => `Signed in to ${server} as ${username}; saved in ${file}`,
  openToSignIn: (url) => `Open this address in a browser to sign in with Lark (飞书):\n  ${url}`,
  larkDeclined: 'Lark sign-in was declined',
  browserTimeout: (seconds) => `no answer from the browser within ${seconds} s`,
  pageForeign: 'This is not the sign-in this command asked for; ignored.',
  pageDeclined: 'You declined the Lark authorization; the command line is not signed in.',
  pageDone: 'The Lark authorization went to the command line; you can close this page.',
};

const catalogs: Record<Language, Messages> = { zh, en };

/** The texts of the language in use; `useLanguage` switches them for the whole process (one command a process). */
export const text: Messages = { ...zh };

export function useLanguage(language: Language): void {
  Object.assign(text, catalogs[language]);
}

/** `en`, `en_US.UTF-8`, `EN` → en; `zh`, `zh-CN` → zh; anything else is null. */
export function languageOf(raw: string): Language | null {
  const match = /^(zh|en)(?:[-_.].*)?$/i.exec(raw.trim());
  return match?.[1] ? (match[1].toLowerCase() as Language) : null;
}
