import type { ReactNode } from 'react';
import { Alert, Button, Card, Descriptions, Flex, Tag, Typography } from 'antd';
import { CheckCircleOutlined, CloseCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchPublicUrlCheck, type CertificateInfo, type PublicUrlReport } from '../../api/system.api.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { zh } from '../../locales/zh-CN.ts';

function YesNo({ value, testId }: { value: boolean; testId: string }) {
  return value ? (
    <Tag color="success" icon={<CheckCircleOutlined />} data-testid={testId}>
      {zh.urlCheck.yes}
    </Tag>
  ) : (
    <Tag color="error" icon={<CloseCircleOutlined />} data-testid={testId}>
      {zh.urlCheck.no}
    </Tag>
  );
}

function CertificateSummary({ certificate }: { certificate: CertificateInfo | null }) {
  if (!certificate) return <Typography.Text type="secondary">{zh.urlCheck.noCertificate}</Typography.Text>;
  const expires = dayjs(certificate.validTo).format('YYYY-MM-DD');
  return (
    <Flex vertical gap={4} data-testid="url-check-certificate">
      <span>
        {zh.urlCheck.subject}：{certificate.subject || '-'}
      </span>
      <span>
        {zh.urlCheck.issuer}：{certificate.issuer || '-'}
      </span>
      <span>
        {zh.urlCheck.validTo}：{expires}（{zh.urlCheck.daysLeft(certificate.daysLeft)}）
      </span>
      <span>
        {certificate.trusted ? (
          <Tag color="success">{zh.urlCheck.trusted}</Tag>
        ) : (
          <Tag color="error">{zh.urlCheck.untrusted(certificate.trustError)}</Tag>
        )}
      </span>
    </Flex>
  );
}

function reportItems(report: PublicUrlReport): { key: string; label: string; children: ReactNode }[] {
  return [
    {
      key: 'publicUrl',
      label: zh.urlCheck.publicUrl,
      children: report.publicUrl ? (
        <Typography.Text copyable style={{ wordBreak: 'break-all' }}>
          {report.publicUrl}
        </Typography.Text>
      ) : (
        <Tag color="warning">{zh.urlCheck.notSet}</Tag>
      ),
    },
    { key: 'https', label: zh.urlCheck.https, children: <YesNo value={report.https} testId="url-check-https" /> },
    {
      key: 'reachable',
      label: zh.urlCheck.reachable,
      children: <YesNo value={report.reachable} testId="url-check-reachable" />,
    },
    {
      key: 'same',
      label: zh.urlCheck.sameDeployment,
      children: <YesNo value={report.sameDeployment} testId="url-check-same" />,
    },
    {
      key: 'certificate',
      label: zh.urlCheck.certificate,
      children: <CertificateSummary certificate={report.certificate} />,
    },
  ];
}

/** 站点地址自检: the server's view of PUBLIC_URL, with each problem as an Alert and 重新检测. */
export function PublicUrlCheckCard() {
  const isMobile = useIsMobile();
  const check = useQuery({
    queryKey: queryKeys.publicUrlCheck,
    queryFn: ({ signal }) => fetchPublicUrlCheck(signal),
    staleTime: 0,
  });
  const report = check.data;

  return (
    <Card
      size="small"
      title={zh.urlCheck.title}
      data-testid="url-check-card"
      loading={check.isLoading}
      extra={
        <Button
          size="small"
          icon={<ReloadOutlined />}
          loading={check.isFetching}
          data-testid="url-check-recheck"
          onClick={() => void check.refetch()}
        >
          {zh.urlCheck.recheck}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{zh.urlCheck.intro}</Typography.Paragraph>
      {report ? (
        <Flex vertical gap={12}>
          <Descriptions
            size="small"
            bordered
            column={1}
            layout={isMobile ? 'vertical' : 'horizontal'}
            items={reportItems(report)}
          />
          {report.problems.length === 0 ? (
            <Alert type="success" showIcon title={zh.urlCheck.ok} data-testid="url-check-ok" />
          ) : (
            report.problems.map((problem, index) => (
              <Alert
                key={`${index}:${problem}`}
                type="warning"
                showIcon
                title={problem}
                data-testid="url-check-problem"
              />
            ))
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {zh.urlCheck.checkedAt(dayjs(check.dataUpdatedAt).format('YYYY-MM-DD HH:mm:ss'))}
          </Typography.Text>
        </Flex>
      ) : null}
    </Card>
  );
}
