import { Descriptions, Typography } from 'antd';
import type { HarmonyCertificateRow } from '@release/contract';
import { deleteHarmonyCertificate, fetchHarmonyCertificates } from '../../api/certificates.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { CertificateCatalog, identityItems } from './certificate-catalog.tsx';
import { certificateNameColumn, certificateTailColumns } from './certificate-columns.tsx';
import { certificationText } from './certification.strings.ts';

const t = certificationText.harmony;

function HarmonyCertificateDetails({ row }: { row: HarmonyCertificateRow }) {
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 1, md: 2 }}
      bordered
      data-testid="harmony-cert-details"
      items={[
        ...identityItems(row),
        {
          key: 'publicKey',
          label: t.fields.publicKey,
          children: (
            <Typography.Text copyable code style={{ wordBreak: 'break-all' }}>
              {row.publicKey}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}

/** 鸿蒙签名证书 (admins): the .p12 identities the server signs HarmonyOS install manifests with; expiry, upload, delete. */
export function HarmonyCertificatesSection() {
  return (
    <CertificateCatalog<HarmonyCertificateRow>
      harmony
      queryKey={queryKeys.harmonyCertificates}
      fetchRows={fetchHarmonyCertificates}
      testIds={{ page: 'harmony-cert-section', table: 'harmony-cert-table', upload: 'harmony-cert-upload' }}
      text={t}
      columns={(refresh) => [
        certificateNameColumn<HarmonyCertificateRow>(),
        { title: t.columns.issuer, dataIndex: 'issuer', width: 240, ellipsis: true },
        { title: t.columns.keyType, dataIndex: 'keyType', width: 80 },
        ...certificateTailColumns<HarmonyCertificateRow>({
          expireTime: (row) => row.validTo,
          testIdPrefix: 'harmony-cert',
          confirm: { title: t.deleteConfirm, description: t.deleteHint },
          onDelete: deleteHarmonyCertificate,
          onDeleted: refresh,
        }),
      ]}
      scrollX={1100}
      details={(row) => <HarmonyCertificateDetails row={row} />}
    />
  );
}
