import { useState } from 'react';
import { Descriptions, Typography, type TableColumnsType } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { HarmonyCertificateRow } from '@release/contract';
import { deleteHarmonyCertificate, fetchHarmonyCertificates } from '../../api/certificates.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { CatalogTable } from '../../app/components/catalog-table.tsx';
import { certificateTailColumns } from './certificate-columns.tsx';
import { CertificateUploadModal } from './certificate-upload.modal.tsx';
import { certificationText } from './certification.strings.ts';

const t = certificationText.harmony;
const day = (time: number) => dayjs(time).format('YYYY-MM-DD');

function HarmonyCertificateDetails({ row }: { row: HarmonyCertificateRow }) {
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 1, md: 2 }} bordered data-testid="harmony-cert-details">
      <Descriptions.Item label={t.fields.sha1}>
        <Typography.Text copyable code style={{ wordBreak: 'break-all' }}>
          {row.sha1}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t.fields.serial}>{row.serialNumber}</Descriptions.Item>
      <Descriptions.Item label={t.fields.validity}>{`${day(row.validFrom)} ~ ${day(row.validTo)}`}</Descriptions.Item>
      <Descriptions.Item label={t.fields.subject}>{row.subject}</Descriptions.Item>
      <Descriptions.Item label={t.fields.publicKey}>
        <Typography.Text copyable code style={{ wordBreak: 'break-all' }}>
          {row.publicKey}
        </Typography.Text>
      </Descriptions.Item>
    </Descriptions>
  );
}

/** 鸿蒙签名证书 (admins): the .p12 identities the server signs HarmonyOS install manifests with; expiry, upload, delete. */
export function HarmonyCertificatesSection() {
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const certificates = useQuery({
    queryKey: queryKeys.harmonyCertificates,
    queryFn: ({ signal }) => fetchHarmonyCertificates(signal),
  });
  const refresh = (): Promise<void> => queryClient.invalidateQueries({ queryKey: queryKeys.harmonyCertificates });

  const columns: TableColumnsType<HarmonyCertificateRow> = [
    {
      title: t.columns.name,
      dataIndex: 'name',
      width: 260,
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    { title: t.columns.issuer, dataIndex: 'issuer', width: 240, ellipsis: true },
    { title: t.columns.keyType, dataIndex: 'keyType', width: 80 },
    ...certificateTailColumns<HarmonyCertificateRow>({
      expireTime: (row) => row.validTo,
      testIdPrefix: 'harmony-cert',
      confirm: { title: t.deleteConfirm, description: t.deleteHint },
      onDelete: deleteHarmonyCertificate,
      onDeleted: refresh,
    }),
  ];

  return (
    <CatalogTable<HarmonyCertificateRow>
      testIds={{ page: 'harmony-cert-section', table: 'harmony-cert-table' }}
      intro={t.intro}
      action={{
        icon: <UploadOutlined />,
        testId: 'harmony-cert-upload',
        label: t.upload,
        onClick: () => setUploading(true),
      }}
      rows={certificates}
      columns={columns}
      scrollX={1100}
      details={(row) => <HarmonyCertificateDetails row={row} />}
      empty={{ title: t.empty, content: t.emptyContent }}
    >
      <CertificateUploadModal
        harmony
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
