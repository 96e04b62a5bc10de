import { Button, Tooltip } from 'antd';
import { TeamOutlined } from '@ant-design/icons';
import type { VersionCounts } from '@release/contract';
import { statsText } from './install-stats.strings.ts';

/** A build's downloads and installs on its row of the package list; opens 谁装了这个版本. */
export function InstallCounts({ counts, onShow }: { counts: VersionCounts | undefined; onShow: () => void }) {
  const downloads = counts?.downloads ?? 0;
  const installs = counts?.installs ?? 0;
  const parts = [
    downloads > 0 ? statsText.downloads(downloads) : null,
    installs > 0 ? statsText.installs(installs) : null,
  ].filter(Boolean);
  return (
    <Tooltip title={statsText.countsHint}>
      <Button
        type="link"
        size="small"
        icon={<TeamOutlined />}
        onClick={onShow}
        style={{ paddingInline: 0, height: 'auto' }}
        data-testid="version-installs"
        data-downloads={downloads}
        data-installs={installs}
      >
        {parts.length ? parts.join(' · ') : statsText.noDownloads}
      </Button>
    </Tooltip>
  );
}
