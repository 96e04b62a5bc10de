import { Tag } from 'antd';
import type { AppType } from '@release/contract';

const typeColors: Record<AppType, string> = { unity: 'purple', native: 'blue', doc: 'green', res: 'orange' };

export function AppTypeTag({ appType }: { appType: AppType }) {
  return (
    <Tag color={typeColors[appType]} style={{ marginInlineEnd: 0 }}>
      {appType}
    </Tag>
  );
}
