import { Button, Popconfirm, Segmented, Tooltip } from 'antd';
import {
  CalendarOutlined,
  DeleteOutlined,
  EditOutlined,
  FileTextOutlined,
  PlusOutlined,
  SyncOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import dayjs from 'dayjs';
import type { CommitView } from '../commits/commit-browser.tsx';
import { wikiText } from '../wiki/wiki.strings.ts';
import { workflowsText } from './workflows.strings.ts';

interface WorkflowToolbarProps {
  canEdit: boolean;
  /** The active tab's name when it can be edited and deleted (never the summary tab). */
  editableName: string | null;
  view: CommitView;
  onViewChange: (view: CommitView) => void;
  onAdd: () => void;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
  /** A git or svn tab can be synced now by its editors (null: not offered). */
  sync: { lastSyncTime: number | null; isSyncing: boolean; onSync: () => void } | null;
  compact: boolean;
  /** A wiki tab: its editors choose the Lark documents it follows (null: not offered). */
  onLarkDocs: (() => void) | null;
}

/** Beside the tabs: list/calendar toggle, and for editors sync, edit, delete and add (SPEC §2). */
export function WorkflowToolbar({
  canEdit,
  editableName,
  view,
  onViewChange,
  onAdd,
  onEdit,
  onDelete,
  sync,
  compact,
  onLarkDocs,
}: WorkflowToolbarProps) {
  return (
    <div className="workflow-toolbar">
      <Segmented<CommitView>
        size={compact ? 'small' : 'middle'}
        value={view}
        onChange={onViewChange}
        data-testid="view-toggle"
        options={[
          {
            value: 'list',
            icon: <UnorderedListOutlined />,
            label: compact ? undefined : workflowsText.views.list,
            title: workflowsText.views.list,
          },
          {
            value: 'calendar',
            icon: <CalendarOutlined />,
            label: compact ? undefined : workflowsText.views.calendar,
            title: workflowsText.views.calendar,
          },
        ]}
      />
      {canEdit && sync ? (
        <Tooltip
          title={
            sync.isSyncing
              ? workflowsText.syncing
              : `${workflowsText.sync}（${sync.lastSyncTime ? workflowsText.lastSync(dayjs(sync.lastSyncTime).format('YYYY-MM-DD HH:mm')) : workflowsText.neverSynced}）`
          }
        >
          <Button
            type="text"
            icon={<SyncOutlined spin={sync.isSyncing} />}
            aria-label={workflowsText.sync}
            disabled={sync.isSyncing}
            onClick={sync.onSync}
            data-testid="workflow-sync"
          />
        </Tooltip>
      ) : null}
      {canEdit && onLarkDocs ? (
        <Tooltip title={wikiText.follows.button}>
          <Button
            type="text"
            icon={<FileTextOutlined />}
            aria-label={wikiText.follows.button}
            onClick={onLarkDocs}
            data-testid="workflow-lark-docs"
          />
        </Tooltip>
      ) : null}
      {canEdit && editableName !== null ? (
        <>
          <Tooltip title={workflowsText.edit}>
            <Button
              type="text"
              icon={<EditOutlined />}
              aria-label={workflowsText.edit}
              onClick={onEdit}
              data-testid="workflow-edit"
            />
          </Tooltip>
          <Popconfirm
            title={workflowsText.deleteConfirm(editableName)}
            description={workflowsText.deleteDescription}
            onConfirm={onDelete}
            okButtonProps={{ danger: true }}
          >
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={workflowsText.delete}
              data-testid="workflow-delete"
            />
          </Popconfirm>
        </>
      ) : null}
      {canEdit ? (
        <Tooltip title={workflowsText.add}>
          <Button
            type="text"
            icon={<PlusOutlined />}
            aria-label={workflowsText.add}
            onClick={onAdd}
            data-testid="workflow-add"
          />
        </Tooltip>
      ) : null}
    </div>
  );
}
