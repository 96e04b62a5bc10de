import { Tag } from 'antd';
import dayjs from 'dayjs';
import { certificateExpiry, type CertificateExpiry } from '@release/contract';
import { certificationText as t } from './certification.strings.ts';

const colors: Record<CertificateExpiry, string> = { expired: 'error', expiring: 'warning', valid: 'success' };

/** 到期时间 with its status: 已过期, 即将过期 (30 days or less) or 有效. */
export function CertificateExpiryTag({ expireTime, now = Date.now() }: { expireTime: number; now?: number }) {
  const status = certificateExpiry(expireTime, now);
  const days = Math.ceil((expireTime - now) / 86_400_000);
  return (
    <span data-testid="cert-expiry" data-status={status}>
      <span style={{ whiteSpace: 'nowrap' }}>{dayjs(expireTime).format('YYYY-MM-DD')}</span>{' '}
      <Tag color={colors[status]} style={{ marginInlineEnd: 0 }}>
        {t.status[status]}
        {status === 'expiring' ? `（${t.daysLeft(days)}）` : ''}
      </Tag>
    </span>
  );
}
