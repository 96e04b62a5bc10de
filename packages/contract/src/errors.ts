/** Envelope codes of SPEC §8. The HTTP status tells the class; `code` tells the client what to do. */
export const ResultCode = {
  ok: 200,
  notModified: 304,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooLarge: 413,
  tooManyRequests: 429,
  internal: 500,
  /** The database cannot be reached now (a restart, a failover, every connection busy): try again shortly. */
  serviceUnavailable: 503,
  /** The server's disk (or its database's) is full: an administrator must free space. */
  insufficientStorage: 507,
  /** No permission: the web app navigates to /403. */
  noPermission: 10028,
} as const;
export type ResultCodeValue = (typeof ResultCode)[keyof typeof ResultCode];

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** Chinese messages the server answers with; the web app shows `msg` as is. */
export const Messages = {
  tokenExpired: '登录信息已过期(token失效)，请重新登录',
  tokenMissing: '未登录(缺少token)，请先登录',
  noPermission: '您没有权限访问',
  wrongCredentials: '用户名或密码错误',
  tooManyLoginFailures: '密码错误次数过多，请15分钟后再试',
  phoneCodeRequired: '请输入手机验证码',
  phoneCodeWrong: '手机验证码错误或已过期',
  phoneCodeTooManyTries: '验证码错误次数过多，请重新获取验证码',
  phoneCodeTooSoon: '验证码发送过于频繁，请稍后再试',
  noPhone: '该账号未绑定手机号，请联系管理员重置密码',
  badJson: '请求体不是合法的JSON',
  notFound: '接口不存在',
  internal: '服务器开小差了，请稍后再试',
  userExists: '用户名已存在',
  userNotFound: '用户不存在',
  roleExists: '角色名称已存在',
  roleNotFound: '角色不存在',
  roleInUse: '该角色下还有用户，不能删除',
  roleBuiltin: '内置管理员角色不能删除',
  categoryExists: '分类名称已存在',
  categoryNotFound: '分类不存在',
  categoryBuiltin: '未分类不能删除或修改',
  cannotDeleteSelf: '不能删除自己',
  lastAdmin: '至少需要保留一个管理员',
  bodyTooLarge: '请求体过大',
  databaseUnavailable: '数据库暂时不可用，请稍后重试',
  storageFull: '服务器存储空间不足，请联系管理员',
} as const;

export const AppMessages = {
  duplicatePath: '下载链接重复，请重新设置',
  duplicatePathRegenerated: '下载链接重复，已自动重新生成',
  appNotFound: '应用不存在或您没有该应用的权限',
  subscribed: '订阅成功',
  unsubscribed: '取消订阅成功',
  adminAsViewer: '管理员无需设置为下载用户',
} as const;
