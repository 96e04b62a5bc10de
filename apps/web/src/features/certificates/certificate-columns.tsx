import { Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { operationColumn, RowActions } from '../../app/components/row-actions.tsx';
import { CertificateExpiryTag } from './certificate-expiry.tsx';
import { certificationText as t } from './certification.strings.ts';

interface Uploaded {
  id: number;
  uploadBy: string | null;
  createTime: number;
}

/** The first column of both tables: the certificate's name, in bold. */
export function certificateNameColumn<T extends { name: string }>(): TableColumnsType<T>[number] {
  return {
    title: t.columns.name,
    dataIndex: 'name',
    width: 260,
    render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
  };
}

/** The right-hand columns both certificate tables share: 到期时间 with its status, 上传 (who, when), 删除. */
export function certificateTailColumns<T extends Uploaded>(options: {
  expireTime: (row: T) => number;
  testIdPrefix: string;
  confirm: { title: string; description: string };
  onDelete: (id: number) => Promise<void>;
  onDeleted: () => Promise<void>;
}): TableColumnsType<T> {
  return [
    {
      title: t.columns.expire,
      key: 'expire',
      width: 200,
      render: (_, row) => <CertificateExpiryTag expireTime={options.expireTime(row)} />,
    },
    {
      title: t.columns.uploader,
      key: 'upload',
      width: 150,
      render: (_, row) => (
        <span>
          {row.uploadBy ?? '-'}
          <br />
          <Typography.Text type="secondary">{dayjs(row.createTime).format('YYYY-MM-DD HH:mm')}</Typography.Text>
        </span>
      ),
    },
    operationColumn<T>(90, (row) => (
      <RowActions
        testIdPrefix={options.testIdPrefix}
        confirmTitle={options.confirm.title}
        confirmDescription={options.confirm.description}
        onDelete={() => options.onDelete(row.id)}
        onDeleted={options.onDeleted}
      />
    )),
  ];
}
