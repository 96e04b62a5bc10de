import { useState } from 'react';
import { Button, Card, Dropdown, Flex, Input, Select, Table, Typography, type TableColumnsType } from 'antd';
import { DownloadOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import {
  DEFAULT_TABLE_PAGE_SIZE,
  deviceExportFormats,
  devicePlatformLabels,
  devicePlatforms,
  deviceReviewLabels,
  deviceReviewStatuses,
  type DeviceReviewStatus,
  type DeviceRow,
} from '@release/contract';
import { APPLE_ACCOUNTS_KEY } from '../../api/apple-accounts.api.ts';
import { deleteDevice, downloadDevices, fetchDevices, type DeviceListParams } from '../../api/devices.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { operationColumn, RowActions } from '../../app/components/row-actions.tsx';
import { tablePagination } from '../../app/components/table-pagination.ts';
import { useEditing } from '../../app/components/use-editing.ts';
import { DeviceEditModal } from './device-edit.modal.tsx';
import { DeviceImportModal } from './device-import.modal.tsx';
import { AppleRegistrations, ReviewActions, ReviewTag } from './device-review.tsx';
import { udidText as t } from './udid.strings.ts';

/** /home/udid (admins, the sider's 设备ID link): the device list on its own card. */
export function UdidPage() {
  return (
    <Card title={t.title}>
      <DeviceManager />
    </Card>
  );
}

/** /home/setting/udid: the same list inside the settings tabs. */
export function SettingUdidPage() {
  return <DeviceManager />;
}

/** Device IDs with search, review (确认/拒绝), Apple registration, add, edit, delete, import (per-line errors) and export. */
function DeviceManager() {
  const queryClient = useQueryClient();
  const [params, setParams] = useState<DeviceListParams>({
    pageNo: 1,
    pageSize: DEFAULT_TABLE_PAGE_SIZE,
    keyword: '',
    platform: '',
    reviewStatus: '',
  });
  const [importing, setImporting] = useState(false);
  const editing = useEditing<DeviceRow>();
  const devices = useQuery({
    queryKey: queryKeys.deviceList(params),
    queryFn: ({ signal }) => fetchDevices(params, signal),
    placeholderData: keepPreviousData,
  });
  const refresh = (): Promise<void> => queryClient.invalidateQueries({ queryKey: queryKeys.devices });
  // A registration at Apple changes the account's lists too.
  const refreshWithApple = async (): Promise<void> => {
    await refresh();
    await queryClient.invalidateQueries({ queryKey: APPLE_ACCOUNTS_KEY });
  };

  const columns: TableColumnsType<DeviceRow> = [
    {
      title: t.columns.udid,
      dataIndex: 'udid',
      width: 260,
      render: (udid: string) => (
        <Typography.Text copyable code style={{ wordBreak: 'break-all' }}>
          {udid}
        </Typography.Text>
      ),
    },
    { title: t.columns.name, dataIndex: 'deviceName', width: 180 },
    {
      title: t.columns.platform,
      dataIndex: 'platform',
      width: 90,
      render: (platform: DeviceRow['platform']) => devicePlatformLabels[platform],
    },
    { title: t.columns.model, dataIndex: 'model', width: 140, render: (model: string | null) => model ?? '-' },
    {
      title: t.columns.review,
      dataIndex: 'reviewStatus',
      width: 90,
      render: (status: DeviceReviewStatus) => <ReviewTag status={status} />,
    },
    {
      title: t.columns.apple,
      key: 'apple',
      width: 230,
      render: (_: unknown, row: DeviceRow) => <AppleRegistrations row={row} onChanged={refreshWithApple} />,
    },
    { title: t.columns.remark, dataIndex: 'remark', width: 160, render: (remark: string) => remark || '-' },
    {
      title: t.columns.createTime,
      dataIndex: 'createTime',
      width: 150,
      render: (time: number) => dayjs(time).format('YYYY-MM-DD HH:mm'),
    },
    operationColumn<DeviceRow>(170, (row) => (
      <Flex wrap>
        <ReviewActions row={row} onChanged={refreshWithApple} />
        <RowActions
          testIdPrefix="device"
          onEdit={() => editing.openEdit(row)}
          confirmTitle={t.deleteConfirm}
          onDelete={() => deleteDevice(row.id)}
          onDeleted={refresh}
        />
      </Flex>
    )),
  ];

  return (
    <Flex vertical gap={16} data-testid="udid-page">
      <Typography.Text type="secondary">{t.intro}</Typography.Text>
      <Flex justify="space-between" gap={8} wrap>
        <Flex gap={8} wrap style={{ flex: '1 1 320px' }}>
          <Input.Search
            allowClear
            data-testid="device-search"
            placeholder={t.searchPlaceholder}
            style={{ maxWidth: 300 }}
            onSearch={(keyword) => setParams((p) => ({ ...p, keyword: keyword.trim(), pageNo: 1 }))}
          />
          <Select
            style={{ width: 120 }}
            value={params.platform}
            onChange={(platform) => setParams((p) => ({ ...p, platform, pageNo: 1 }))}
            options={[
              { value: '', label: t.platformAll },
              ...devicePlatforms.map((p) => ({ value: p, label: devicePlatformLabels[p] })),
            ]}
          />
          <Select
            style={{ width: 120 }}
            data-testid="device-review-filter"
            value={params.reviewStatus}
            onChange={(reviewStatus) => setParams((p) => ({ ...p, reviewStatus, pageNo: 1 }))}
            options={[
              { value: '', label: t.reviewAll },
              ...deviceReviewStatuses.map((status) => ({ value: status, label: deviceReviewLabels[status] })),
            ]}
          />
        </Flex>
        <Flex gap={8} wrap>
          <Button icon={<ImportOutlined />} data-testid="device-import" onClick={() => setImporting(true)}>
            {t.import}
          </Button>
          <Dropdown
            menu={{
              items: deviceExportFormats.map((format) => ({ key: format, label: t.exportFormats[format] })),
              onClick: ({ key }) => void downloadDevices(key as (typeof deviceExportFormats)[number]),
            }}
          >
            <Button icon={<DownloadOutlined />} data-testid="device-export">
              {t.export}
            </Button>
          </Dropdown>
          <Button type="primary" icon={<PlusOutlined />} data-testid="device-add" onClick={editing.openCreate}>
            {t.add}
          </Button>
        </Flex>
      </Flex>
      <Table<DeviceRow>
        data-testid="device-table"
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={devices.data?.rows ?? []}
        loading={devices.isFetching}
        scroll={{ x: 1470 }}
        pagination={tablePagination({
          total: devices.data?.total ?? 0,
          pageNo: params.pageNo,
          pageSize: params.pageSize,
          onChange: (pageNo, pageSize) =>
            setParams((p) => ({ ...p, pageNo: pageSize === p.pageSize ? pageNo : 1, pageSize })),
        })}
        locale={{ emptyText: <FeatureEmpty title={t.empty} content={t.emptyContent} /> }}
      />
      <DeviceEditModal
        open={editing.open}
        device={editing.record}
        onClose={editing.close}
        onSaved={() => {
          editing.close();
          void refresh();
        }}
      />
      <DeviceImportModal open={importing} onClose={() => setImporting(false)} onImported={() => void refresh()} />
    </Flex>
  );
}
