import { type ReactNode, useState } from 'react';
import { type DescriptionsProps, type TableColumnsType, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { CatalogTable } from '../../app/components/catalog-table.tsx';
import { CertificateUploadModal } from './certificate-upload.modal.tsx';
import { certificationText as t } from './certification.strings.ts';

const day = (time: number) => dayjs(time).format('YYYY-MM-DD');

/** What both kinds of certificate show of their identity. */
interface Identity {
  sha1: string;
  serialNumber: string;
  validFrom: number;
  validTo: number;
  subject: string;
}

/** SHA-1 (copyable), 序列号, 有效期 and 主题 of a certificate, as Descriptions items. */
export function identityItems(row: Identity): NonNullable<DescriptionsProps['items']> {
  return [
    {
      key: 'sha1',
      label: t.certFields.sha1,
      children: (
        <Typography.Text copyable code style={{ wordBreak: 'break-all' }}>
          {row.sha1}
        </Typography.Text>
      ),
    },
    { key: 'serial', label: t.certFields.serial, children: row.serialNumber },
    { key: 'validity', label: t.certFields.validity, children: `${day(row.validFrom)} ~ ${day(row.validTo)}` },
    { key: 'subject', label: t.certFields.subject, children: row.subject },
  ];
}

/**
 * One tab of 证书管理 (iOS or HarmonyOS): its certificates, each expandable to its details, and the upload button with
 * its modal; an upload or a delete reads the list again.
 */
export function CertificateCatalog<T extends { id: number }>({
  harmony = false,
  queryKey,
  fetchRows,
  testIds,
  text,
  columns,
  scrollX,
  details,
}: {
  harmony?: boolean;
  queryKey: readonly string[];
  fetchRows: (signal: AbortSignal) => Promise<T[]>;
  testIds: { page: string; table: string; upload: string };
  text: { intro: string; upload: string; empty: string; emptyContent: string };
  /** The columns, given how to read the list again (after a delete). */
  columns: (refresh: () => Promise<void>) => TableColumnsType<T>;
  scrollX: number;
  details: (row: T) => ReactNode;
}) {
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const rows = useQuery({ queryKey, queryFn: ({ signal }) => fetchRows(signal) });
  const refresh = (): Promise<void> => queryClient.invalidateQueries({ queryKey });

  return (
    <CatalogTable<T>
      testIds={{ page: testIds.page, table: testIds.table }}
      intro={text.intro}
      action={{
        icon: <UploadOutlined />,
        testId: testIds.upload,
        label: text.upload,
        onClick: () => setUploading(true),
      }}
      rows={rows}
      columns={columns(refresh)}
      scrollX={scrollX}
      details={details}
      empty={{ title: text.empty, content: text.emptyContent }}
    >
      <CertificateUploadModal
        harmony={harmony}
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
