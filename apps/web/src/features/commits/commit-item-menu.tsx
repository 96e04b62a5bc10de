import { Button, Dropdown } from 'antd';
import { EditOutlined, MoreOutlined, NotificationOutlined, SendOutlined } from '@ant-design/icons';
import { commitsText } from './commits.strings.ts';

const text = commitsText.menu;

/** 编辑/补充, 发送通知, 批量发送通知 (SPEC §2). */
export function CommitItemMenu({
  onEdit,
  onSend,
  onBatchSend,
}: {
  onEdit: () => void;
  onSend: () => void;
  onBatchSend: () => void;
}) {
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          {
            key: 'edit',
            icon: <EditOutlined />,
            label: <span data-testid="commit-menu-edit">{text.edit}</span>,
            onClick: onEdit,
          },
          {
            key: 'send',
            icon: <SendOutlined />,
            label: <span data-testid="commit-menu-send">{text.send}</span>,
            onClick: onSend,
          },
          {
            key: 'batch',
            icon: <NotificationOutlined />,
            label: <span data-testid="commit-menu-batch">{text.batchSend}</span>,
            onClick: onBatchSend,
          },
        ],
      }}
    >
      <Button type="text" size="small" icon={<MoreOutlined />} aria-label={text.more} data-testid="commit-item-menu" />
    </Dropdown>
  );
}
