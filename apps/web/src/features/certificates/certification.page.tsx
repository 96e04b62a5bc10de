import { Descriptions, Flex, Tabs, Tag, Typography } from 'antd';
import { profileTypeLabels, type CertificateProfile, type CertificateRow } from '@release/contract';
import { deleteCertificate, fetchCertificates } from '../../api/certificates.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { CertificateCatalog, identityItems } from './certificate-catalog.tsx';
import { certificateNameColumn, certificateTailColumns } from './certificate-columns.tsx';
import { CertificateExpiryTag } from './certificate-expiry.tsx';
import { certificationText as t } from './certification.strings.ts';
import { HarmonyCertificatesSection } from './harmony-certificates.section.tsx';

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
      <Descriptions size="small" column={{ xs: 1, sm: 1, md: 2 }} bordered items={identityItems(row)} />
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
  return (
    <CertificateCatalog<CertificateRow>
      queryKey={queryKeys.certificates}
      fetchRows={fetchCertificates}
      testIds={{ page: 'certification-page', table: 'cert-table', upload: 'cert-upload' }}
      text={t}
      columns={(refresh) => [
        certificateNameColumn<CertificateRow>(),
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
      ]}
      scrollX={1300}
      details={(row) => <CertificateDetails row={row} />}
    />
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
