/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import type { InstallVersion } from '@release/contract';
import { copyText } from '../app/clipboard.ts';
import { Alert, Button, Icon } from './ui.tsx';

export const modulesText = {
  modules: (count: number) => `模块（${count} 个，安装时一起安装）`,
  shared: '共享',
  devices: (count: number) => `调试版本，只能安装在已登记的 ${count} 台设备上`,
  noDevices: '调试版本，描述文件没有登记任何设备',
  hdc: '下载全部模块后，在连接设备的电脑上运行：',
  copy: '复制命令',
  copied: '已复制',
  copyFailed: '复制失败，请手动复制',
  cannotInstall: '暂时不能在手机上直接安装',
} as const;

/**
 * A build installed module by module (HarmonyOS): why there is no install link when one was expected, a debug
 * build's devices and the `hdc install` command to copy, and each module to download.
 */
export function InstallModules({ version }: { version: InstallVersion }) {
  const [said, setSaid] = useState<string | null>(null);
  if (version.modules.length === 0) return null;
  const command = version.hdcCommand;
  return (
    <div class="i-stack i-gap-8" data-testid="install-modules">
      {version.installHint && (
        <Alert type="info" title={modulesText.cannotInstall} testId="install-hint">
          {version.installHint}
        </Alert>
      )}
      {version.devices && (
        <div class="i-stack i-gap-4" data-testid="install-devices">
          <strong>
            {version.devices.length ? modulesText.devices(version.devices.length) : modulesText.noDevices}
          </strong>
          {version.devices.map((device) => (
            <code key={device} class="i-ellipsis i-small">
              {device}
            </code>
          ))}
        </div>
      )}
      {command && (
        <div class="i-stack i-gap-4">
          <span class="i-small">{modulesText.hdc}</span>
          <code class="i-code" data-testid="install-hdc-command">
            {command}
          </code>
          <Button
            look="link"
            icon="link"
            testId="install-copy-hdc"
            onClick={() =>
              void copyText(command).then((done) => setSaid(done ? modulesText.copied : modulesText.copyFailed))
            }
          >
            {said ?? modulesText.copy}
          </Button>
        </div>
      )}
      <div class="i-stack i-gap-2">
        <strong>{modulesText.modules(version.modules.length)}</strong>
        {version.modules.map((module) => (
          <a
            key={module.url}
            class="i-ellipsis"
            href={module.url}
            download={module.fileName}
            data-testid="install-module"
          >
            <Icon name="download" /> {module.fileName}
            {module.type === 'shared' ? `（${modulesText.shared}）` : ''}
          </a>
        ))}
      </div>
    </div>
  );
}
