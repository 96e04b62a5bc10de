import { useState } from 'react';
import { Descriptions, Flex, Tabs, Tag, Typography, type TableColumnsType } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { profileTypeLabels, type CertificateProfile, type CertificateRow } from '@release/contract';
import { deleteCertificate, fetchCertificates } from '../../api/certificates.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { CatalogTable } from '../../app/components/catalog-table.tsx';
import { certificateTailColumns } from './certificate-columns.tsx';
import { CertificateExpiryTag } from './certificate-expiry.tsx';
import { CertificateUploadModal } from './certificate-upload.modal.tsx';
import { certificationText as t } from './certification.strings.ts';
import { HarmonyCertificatesSection } from './harmony-certificates.section.tsx';

const day = (time: number) => dayjs(time).format('YYYY-MM-DD');

function ProfileLine({ profile }: { profile: CertificateProfile }) {
  return (
    <div data-testid="cert-profile">
      <Typography.Text>{profile.name}</Typography.Text> <Tag>{profileTypeLabels[profile.type]}</Tag>
    </div>
  );
}

function CertificateDetails({ row }: { row: CertificateRow }) {
  return (
    <Flex vertical gap={12} data-testid="cert-details">
      <Descriptions size="small" column={{ xs: 1, sm: 1, md: 2 }} bordered>
        <Descriptions.Item label={t.certFields.sha1}>
          <Typography.Text copyable code style={{ wordBreak: 'break-all' }}>
            {row.sha1}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t.certFields.serial}>{row.serialNumber}</Descriptions.Item>
        <Descriptions.Item
          label={t.certFields.validity}
        >{`${day(row.validFrom)} ~ ${day(row.validTo)}`}</Descriptions.Item>
        <Descriptions.Item label={t.certFields.subject}>{row.subject}</Descriptions.Item>
      </Descriptions>
      {row.profiles.map((profile) => (
        <Descriptions key={profile.id} size="small" column={{ xs: 1, sm: 1, md: 2 }} title={profile.name} bordered>
          <Descriptions.Item label={t.profileFields.type}>{profileTypeLabels[profile.type]}</Descriptions.Item>
          <Descriptions.Item label={t.profileFields.appId}>{profile.appId}</Descriptions.Item>
          <Descriptions.Item label={t.profileFields.uuid}>{profile.uuid}</Descriptions.Item>
          <Descriptions.Item label={t.profileFields.expire}>
            <CertificateExpiryTag expireTime={profile.expireTime} />
          </Descriptions.Item>
          <Descriptions.Item label={t.profileFields.devices}>
            {profile.provisionsAllDevices ? t.allDevices : t.devices(profile.devices.length)}
          </Descriptions.Item>
        </Descriptions>
      ))}
    </Flex>
  );
}

/** The iOS certificates with their profiles, expiry status, upload and delete. */
function IosCertificates() {
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const certificates = useQuery({
    queryKey: queryKeys.certificates,
    queryFn: ({ signal }) => fetchCertificates(signal),
  });
  const refresh = (): Promise<void> => queryClient.invalidateQueries({ queryKey: queryKeys.certificates });

  const columns: TableColumnsType<CertificateRow> = [
    {
      title: t.columns.name,
      dataIndex: 'name',
      width: 260,
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    {
      title: t.columns.team,
      key: 'team',
      width: 180,
      render: (_, row) => (
        <span data-testid="cert-team">
          {row.teamName ?? '-'}
          <br />
          <Typography.Text type="secondary">{row.groupId}</Typography.Text>
        </span>
      ),
    },
    { title: t.columns.mainBundleId, dataIndex: 'mainBundleId', width: 180 },
    {
      title: t.columns.profiles,
      key: 'profiles',
      width: 240,
      render: (_, row) => row.profiles.map((p) => <ProfileLine key={p.id} profile={p} />),
    },
    ...certificateTailColumns<CertificateRow>({
      expireTime: (row) => row.expireTime,
      testIdPrefix: 'cert',
      confirm: { title: t.deleteConfirm, description: t.deleteHint },
      onDelete: deleteCertificate,
      onDeleted: refresh,
    }),
  ];

  return (
    <CatalogTable<CertificateRow>
      testIds={{ page: 'certification-page', table: 'cert-table' }}
      intro={t.intro}
      action={{ icon: <UploadOutlined />, testId: 'cert-upload', label: t.upload, onClick: () => setUploading(true) }}
      rows={certificates}
      columns={columns}
      scrollX={1300}
      details={(row) => <CertificateDetails row={row} />}
      empty={{ title: t.empty, content: t.emptyContent }}
    >
      <CertificateUploadModal
        open={uploading}
        onClose={() => setUploading(false)}
        onUploaded={() => {
          setUploading(false);
          void refresh();
        }}
      />
    </CatalogTable>
  );
}

/** /home/setting/certification (admins): iOS certificates (re-signing) and HarmonyOS ones (install manifests), a tab each. */
export function CertificationPage() {
  return (
    <Tabs
      data-testid="cert-tabs"
      items={[
        { key: 'ios', label: t.tabs.ios, children: <IosCertificates /> },
        { key: 'harmony', label: t.tabs.harmony, children: <HarmonyCertificatesSection /> },
      ]}
    />
  );
}
