import { Flex, Typography } from 'antd';
import { bundleIdPlatforms, platformNames, type AppBundleIds } from '@release/contract';

/** The app's own ids per platform (set by each platform's first build or in 应用设置), not the last upload's. */
export function BundleIdList({ bundleIds }: { bundleIds: AppBundleIds }) {
  const platforms = bundleIdPlatforms.filter((platform) => bundleIds[platform].length > 0);
  if (platforms.length === 0) return <span data-testid="app-bundle-ids">-</span>;
  return (
    <Flex vertical gap={2} style={{ minWidth: 0 }} data-testid="app-bundle-ids">
      {platforms.map((platform) => (
        <Typography.Text key={platform} style={{ wordBreak: 'break-all' }} data-testid={`app-bundle-ids-${platform}`}>
          <Typography.Text type="secondary">{platformNames[platform]}：</Typography.Text>
          {bundleIds[platform].join('、')}
        </Typography.Text>
      ))}
    </Flex>
  );
}
