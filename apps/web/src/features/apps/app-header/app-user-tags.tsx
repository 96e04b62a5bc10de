import { Flex, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import type { AppPermit, AppUser } from '@release/contract';
import { zh } from '../../../locales/zh-CN.ts';
import { trendPath } from '../app.constants.ts';

const groups: { permit: AppPermit; label: string; color: string }[] = [
  { permit: 'edit', label: zh.appPage.editUsers, color: 'blue' },
  { permit: 'view', label: zh.appPage.viewUsers, color: 'default' },
];

/** Users with edit and view (download) rights; each name opens that user's trend page. */
export function AppUserTags({ users }: { users: AppUser[] }) {
  return groups.map(({ permit, label, color }) => {
    const members = users.filter((user) => user.permit === permit);
    if (members.length === 0) return null;
    return (
      <Flex key={permit} gap={4} wrap align="center" data-testid={`app-header-${permit}-users`}>
        <Typography.Text type="secondary">{label}：</Typography.Text>
        {members.map((user) => (
          <Tag key={user.userId} color={color} style={{ marginInlineEnd: 0 }}>
            <Link to={trendPath(user.username)} data-testid="app-user-tag">
              {user.username}
            </Link>
          </Tag>
        ))}
      </Flex>
    );
  });
}
