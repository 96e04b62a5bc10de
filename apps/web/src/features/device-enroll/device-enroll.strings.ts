/** Chinese strings of self-service device registration (install page box and /device-enroll/result). */
export const enrollText = {
  register: '注册此设备',
  registerTitle: '本设备可能无法安装此版本',
  registerIntro:
    '内测版和开发版只能安装在描述文件已包含 UDID 的设备上。在 iPhone 的 Safari 中点击“注册此设备”，按以下步骤把本设备登记给管理员：',
  steps: [
    '下载描述文件后，打开“设置”，点击顶部的“已下载描述文件”',
    '点击右上角“安装”，输入锁屏密码后再点“安装”',
    '完成后 Safari 会自动打开注册结果页',
  ],
  safariOnly: '请在 iPhone 或 iPad 的 Safari 中操作；其他浏览器无法下载描述文件。',
  registeredTitle: '本设备已注册，但此版本尚未包含它',
  registeredContent: (udid: string) =>
    `本设备（UDID ${udid}）已登记。此版本需要管理员重新签名（把本设备加入描述文件）后才能安装，请联系应用负责人。`,
  registerAgain: '重新注册',
  onIphoneTitle: '请在 iPhone 上打开本页面',
  onIphone:
    '内测版和开发版只能安装在已登记 UDID 的 iPhone 或 iPad 上。请用 iPhone 相机扫描本页的二维码，在 Safari 中打开本页面；设备尚未登记时，在那里点击“注册此设备”。',
  failed: '无法开始注册',
  resultTitle: '设备注册结果',
  registered: '设备注册成功',
  known: '该设备已登记过',
  resubmitHint: '安装包需要重新签名才能包含本设备：请联系管理员或应用负责人重签名后，再回到安装页安装。',
  udid: 'UDID',
  product: '型号',
  osVersion: '系统版本',
  serial: '序列号',
  copy: '复制 UDID',
  copied: '已复制',
  backToInstall: (appName: string) => `返回「${appName}」安装页`,
  resultFailed: '无法读取注册结果',
  mine: '注册我的设备',
  mineIntro: '用 iPhone 相机扫码（或在 iPhone 的 Safari 中点击下方按钮）下载描述文件，本设备的 UDID 会登记到你的名下：',
  mineOpen: '在本机下载描述文件',
  mineExpires: (time: string) => `链接仅可使用一次，${time} 前有效`,
} as const;
