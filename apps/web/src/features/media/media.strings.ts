/** Chinese strings of the media thumbnails and the lightbox. */
export const mediaText = {
  zoomIn: '放大',
  zoomOut: '缩小',
  rotateLeft: '向左旋转',
  rotateRight: '向右旋转',
  reset: '还原',
  open: '查看原文件',
  close: '关闭',
  previous: '上一个',
  next: '下一个',
  counter: (index: number, total: number) => `${index} / ${total}`,
  jsonLoading: '正在加载 JSON…',
  jsonFailed: '文件加载失败，可以点击“查看原文件”打开',
  unsupported: '该文件不支持预览',
  video: '视频',
  json: 'JSON',
  file: '文件',
} as const;
