import { useState } from 'react';
import { Button, Flex, Popconfirm, Tag, Tooltip, Typography } from 'antd';
import {
  deviceReviewLabels,
  type DeviceAppleRegistration,
  type DeviceReviewStatus,
  type DeviceRow,
} from '@release/contract';
import { registerAppleDevices } from '../../api/apple-accounts.api.ts';
import { reviewDevice } from '../../api/devices.api.ts';
import { toast } from '../../app/feedback.ts';
import { udidText as t } from './udid.strings.ts';

const REVIEW_COLORS: Record<DeviceReviewStatus, string> = { confirmed: 'green', pending: 'orange', rejected: 'red' };

/** 待确认 / 已确认 / 已拒绝. */
export function ReviewTag({ status }: { status: DeviceReviewStatus }) {
  return (
    <Tag color={REVIEW_COLORS[status]} data-testid="device-review-status">
      {deviceReviewLabels[status]}
    </Tag>
  );
}

/** 确认 for a pending or rejected device, 拒绝 (asked first) for a pending one. */
export function ReviewActions({ row, onChanged }: { row: DeviceRow; onChanged: () => unknown }) {
  const [busy, setBusy] = useState(false);
  const review = async (reviewStatus: 'confirmed' | 'rejected') => {
    setBusy(true);
    try {
      await reviewDevice({ id: row.id, reviewStatus });
      toast.success(reviewStatus === 'confirmed' ? t.confirmed : t.rejected);
      await onChanged();
    } catch {
      // Toasted by the API client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {row.reviewStatus !== 'confirmed' ? (
        <Button
          type="link"
          size="small"
          loading={busy}
          data-testid="device-confirm"
          onClick={() => void review('confirmed')}
        >
          {t.confirm}
        </Button>
      ) : null}
      {row.reviewStatus === 'pending' ? (
        <Popconfirm title={t.rejectConfirm} description={t.rejectDescription} onConfirm={() => review('rejected')}>
          <Button type="link" size="small" danger disabled={busy} data-testid="device-reject">
            {t.reject}
          </Button>
        </Popconfirm>
      ) : null}
    </>
  );
}

/** Whether an Apple account's device list (last sync) holds the device; 注册 registers a confirmed one there. */
function AppleRegistration({
  row,
  entry,
  onChanged,
}: {
  row: DeviceRow;
  entry: DeviceAppleRegistration;
  onChanged: () => unknown;
}) {
  const [busy, setBusy] = useState(false);
  const register = async () => {
    setBusy(true);
    try {
      const result = await registerAppleDevices(entry.accountId, [row.id]);
      const failure = result.failed[0];
      if (failure) toast.error(failure.msg);
      else toast.success(t.appleRegisterDone(entry.accountName));
      await onChanged();
    } catch {
      // Toasted by the API client (a refused key, an expired agreement…).
    } finally {
      setBusy(false);
    }
  };
  const state = entry.registered
    ? entry.status === 'ENABLED'
      ? t.appleRegistered
      : t.appleDisabled
    : t.appleUnregistered;
  return (
    <Flex gap={4} align="center" wrap data-testid="device-apple" data-account={entry.accountName}>
      <Typography.Text ellipsis style={{ maxWidth: 120 }} title={entry.accountName}>
        {entry.accountName}
      </Typography.Text>
      <Tag color={entry.registered ? (entry.status === 'ENABLED' ? 'green' : 'default') : 'orange'}>{state}</Tag>
      {entry.registered ? null : row.reviewStatus === 'confirmed' ? (
        <Button
          type="link"
          size="small"
          loading={busy}
          data-testid="device-apple-register"
          onClick={() => void register()}
          style={{ padding: 0 }}
        >
          {t.appleRegister}
        </Button>
      ) : (
        <Typography.Text type="secondary">{t.appleNeedsConfirm}</Typography.Text>
      )}
    </Flex>
  );
}

/** The 苹果注册 cell: one line per synced Apple account. */
export function AppleRegistrations({ row, onChanged }: { row: DeviceRow; onChanged: () => unknown }) {
  if (row.apple.length === 0) {
    return (
      <Tooltip title={t.appleNoAccountHint}>
        <Typography.Text type="secondary">{t.appleNoAccount}</Typography.Text>
      </Tooltip>
    );
  }
  return (
    <Flex vertical gap={2}>
      {row.apple.map((entry) => (
        <AppleRegistration key={entry.accountId} row={row} entry={entry} onChanged={onChanged} />
      ))}
    </Flex>
  );
}
