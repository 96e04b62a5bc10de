import { Flex } from 'antd';
import { PublicUrlCheckCard } from './public-url-check.card.tsx';
import { RepoHostsCard } from './repo-hosts.card.tsx';

/** /home/setting/system: deployment checks for admins. */
export function SystemSettingPage() {
  return (
    <Flex vertical gap={16} data-testid="system-setting-page">
      <PublicUrlCheckCard />
      <RepoHostsCard />
    </Flex>
  );
}
