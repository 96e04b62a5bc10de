import { useState } from 'react';
import { Button, Descriptions, Flex, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { AppleAccountRow } from '@release/contract';
import {
  APPLE_ACCOUNTS_KEY as ACCOUNTS_KEY,
  deleteAppleAccount,
  fetchAppleAccounts,
  syncAppleAccount,
} from '../../api/apple-accounts.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { CatalogTable } from '../../app/components/catalog-table.tsx';
import { operationColumn, RowActions } from '../../app/components/row-actions.tsx';
import { toast } from '../../app/feedback.ts';
import { AppleBindModal, AppleProfileModal, AppleRegisterDevicesModal } from './apple-account-actions.modals.tsx';
import { AppleAccountEditModal } from './apple-account-edit.modal.tsx';
import { AppleBuildDeviceModal } from './apple-build-device.modal.tsx';
import { fetchAppList } from '../../api/apps.api.ts';
import { defaultAppFilter } from '../apps/app-filter.context.tsx';
import { appleAccountText as t } from './apple-account.strings.ts';

function AccountDetails({ row }: { row: AppleAccountRow }) {
  return (
    <Flex vertical gap={12} data-testid="apple-account-details">
      <Descriptions size="small" column={1} bordered title={t.detailCertificates}>
        {row.certificates.map((c) => (
          <Descriptions.Item key={c.appleId} label={c.certificateType}>
            {`${c.name}（${c.serialNumber}，${dayjs(c.expireTime).format('YYYY-MM-DD')}）`}{' '}
            <Tag color={c.localCertificateId ? 'green' : 'default'}>
              {c.localCertificateId ? t.localCertificate : t.noLocalCertificate}
            </Tag>
          </Descriptions.Item>
        ))}
      </Descriptions>
      <Table
        size="small"
        rowKey="appleId"
        title={() => t.detailDevices}
        dataSource={row.devices}
        pagination={false}
        scroll={{ x: 600 }}
        columns={[
          {
            title: 'UDID',
            dataIndex: 'udid',
            render: (udid: string) => <Typography.Text code>{udid}</Typography.Text>,
          },
          { title: t.columns.name, dataIndex: 'name' },
          { title: 'Model', dataIndex: 'model', render: (m: string | null) => m ?? '-' },
          {
            title: '',
            dataIndex: 'status',
            render: (s: string) => <Tag color={s === 'ENABLED' ? 'green' : 'default'}>{t.deviceStatus[s] ?? s}</Tag>,
          },
        ]}
      />
    </Flex>
  );
}

/** /home/setting/apple_account (admins): App Store Connect API keys; sync, register devices, regenerate profiles, bind. */
export function AppleAccountPage() {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<AppleAccountRow | null | undefined>(undefined);
  const [registering, setRegistering] = useState<AppleAccountRow | null>(null);
  const [profiling, setProfiling] = useState<AppleAccountRow | null>(null);
  const [binding, setBinding] = useState<AppleAccountRow | null>(null);
  const [buildDevice, setBuildDevice] = useState<AppleAccountRow | null>(null);
  const apps = useQuery({
    queryKey: queryKeys.appList(defaultAppFilter),
    queryFn: ({ signal }) => fetchAppList(defaultAppFilter, signal),
  });
  const appNames = new Map((apps.data?.apps ?? []).map((a) => [a.appId, a.appName]));
  const [syncing, setSyncing] = useState<number | null>(null);
  const accounts = useQuery({ queryKey: ACCOUNTS_KEY, queryFn: ({ signal }) => fetchAppleAccounts(signal) });
  const refresh = async (): Promise<void> => {
    await queryClient.invalidateQueries({ queryKey: ACCOUNTS_KEY });
    await queryClient.invalidateQueries({ queryKey: queryKeys.devices });
    await queryClient.invalidateQueries({ queryKey: queryKeys.certificates });
  };

  const sync = async (row: AppleAccountRow) => {
    setSyncing(row.id);
    try {
      const result = await syncAppleAccount(row.id);
      toast.success(t.synced(result.devices, result.certificates, result.bundleIds, result.newLocalDevices));
      await refresh();
    } catch {
      // toasted by the API client
    } finally {
      setSyncing(null);
    }
  };

  const columns: TableColumnsType<AppleAccountRow> = [
    {
      title: t.columns.name,
      key: 'name',
      width: 220,
      render: (_, row) => (
        <span>
          <Typography.Text strong>{row.name}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{`${row.keyId} · ${row.issuerId.slice(0, 8)}…`}</Typography.Text>
        </span>
      ),
    },
    { title: t.columns.team, dataIndex: 'teamId', width: 120, render: (team: string | null) => team ?? '-' },
    {
      title: t.columns.lastSync,
      key: 'sync',
      width: 240,
      render: (_, row) =>
        row.lastSyncTime ? (
          <span data-testid="apple-account-counts">
            {t.counts(row.devices.length, row.certificates.length, row.bundleIds.length)}
            <br />
            <Typography.Text type="secondary">{dayjs(row.lastSyncTime).format('YYYY-MM-DD HH:mm')}</Typography.Text>
          </span>
        ) : (
          <Typography.Text type="secondary">{t.neverSynced}</Typography.Text>
        ),
    },
    {
      title: t.bind,
      key: 'bind',
      width: 150,
      render: (_, row) => (
        <span data-testid="apple-account-bound" title={row.appIds.map((id) => appNames.get(id) ?? `#${id}`).join('、')}>
          {t.boundCount(row.appIds.length, row.certificateIds.length)}
        </span>
      ),
    },
    {
      title: '',
      key: 'actions',
      width: 340,
      render: (_, row) => (
        <Flex gap={4} wrap>
          <Button
            size="small"
            type="primary"
            loading={syncing === row.id}
            data-testid="apple-account-sync"
            onClick={() => void sync(row)}
          >
            {t.sync}
          </Button>
          <Button
            size="small"
            data-testid="apple-account-register"
            disabled={!row.lastSyncTime}
            onClick={() => setRegistering(row)}
          >
            {`${t.register}${row.lastSyncTime && row.unregisteredDevices.length ? `（${row.unregisteredDevices.length}）` : ''}`}
          </Button>
          <Button
            size="small"
            data-testid="apple-account-profile"
            disabled={!row.lastSyncTime}
            onClick={() => setProfiling(row)}
          >
            {t.profile}
          </Button>
          <Button size="small" data-testid="apple-account-bind" onClick={() => setBinding(row)}>
            {t.bind}
          </Button>
          <Button
            size="small"
            data-testid="apple-account-build-device"
            disabled={!row.lastSyncTime || row.appIds.length === 0}
            onClick={() => setBuildDevice(row)}
          >
            {t.buildDevice}
          </Button>
        </Flex>
      ),
    },
    operationColumn<AppleAccountRow>(110, (row) => (
      <RowActions
        testIdPrefix="apple-account"
        onEdit={() => setEditing(row)}
        confirmTitle={t.deleteConfirm}
        confirmDescription={t.deleteHint}
        onDelete={() => deleteAppleAccount(row.id)}
        onDeleted={refresh}
      />
    )),
  ];

  const done = (close: () => void) => () => {
    close();
    void refresh();
  };

  return (
    <CatalogTable<AppleAccountRow>
      testIds={{ page: 'apple-account-page', table: 'apple-account-table' }}
      intro={t.intro}
      action={{ icon: <PlusOutlined />, testId: 'apple-account-add', label: t.add, onClick: () => setEditing(null) }}
      rows={accounts}
      columns={columns}
      scrollX={1170}
      details={(row) => <AccountDetails row={row} />}
      empty={{ title: t.empty, content: t.emptyContent }}
    >
      <AppleAccountEditModal
        open={editing !== undefined}
        account={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={done(() => setEditing(undefined))}
      />
      <AppleRegisterDevicesModal
        account={registering}
        onClose={() => setRegistering(null)}
        onDone={() => void refresh()}
      />
      <AppleProfileModal
        account={profiling}
        onClose={() => setProfiling(null)}
        onDone={done(() => setProfiling(null))}
      />
      <AppleBindModal account={binding} onClose={() => setBinding(null)} onDone={done(() => setBinding(null))} />
      <AppleBuildDeviceModal
        account={buildDevice}
        appNames={appNames}
        onClose={() => setBuildDevice(null)}
        onDone={done(() => setBuildDevice(null))}
      />
    </CatalogTable>
  );
}
