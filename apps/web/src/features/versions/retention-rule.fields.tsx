import { Flex, Form, InputNumber, Switch } from 'antd';
import { RETENTION_LIMITS } from '@release/contract';
import { versionsText } from './versions.strings.ts';

type NumberField = 'keepLast' | 'keepDays' | 'quotaMb';

const numberFields: Array<{ name: NumberField; label: string; unit: string; testId: string; required: boolean }> = [
  {
    name: 'keepLast',
    label: versionsText.retentionKeepLast,
    unit: versionsText.retentionKeepLastUnit,
    testId: 'keep-last',
    required: true,
  },
  {
    name: 'keepDays',
    label: versionsText.retentionKeepDays,
    unit: versionsText.retentionKeepDaysUnit,
    testId: 'keep-days',
    required: true,
  },
  {
    name: 'quotaMb',
    label: versionsText.retentionQuota,
    unit: versionsText.retentionQuotaUnit,
    testId: 'quota',
    required: false,
  },
];

/**
 * The fields of a retention rule inside an antd Form of RetentionRule: on/off, keep the last N per platform, keep D
 * days, the space quota. The app's rule (retention.modal.tsx) and the default for new apps (设置 → 存储) share them;
 * `testIdPrefix` tells them apart in tests (`retention` → `retention-keep-last`).
 */
export function RetentionRuleFields({ testIdPrefix }: { testIdPrefix: string }) {
  return (
    <>
      <Form.Item name="enabled" label={versionsText.retentionEnabled} valuePropName="checked">
        <Switch data-testid={`${testIdPrefix}-enabled`} />
      </Form.Item>
      {numberFields.map((field) => (
        <Form.Item
          key={field.name}
          label={field.label}
          tooltip={field.name === 'quotaMb' ? versionsText.retentionQuotaHint : undefined}
        >
          <Flex gap={6} align="center" wrap>
            <Form.Item name={field.name} noStyle rules={field.required ? [{ required: true }] : undefined}>
              <InputNumber
                min={RETENTION_LIMITS[field.name].min}
                max={RETENTION_LIMITS[field.name].max}
                precision={0}
                data-testid={`${testIdPrefix}-${field.testId}`}
              />
            </Form.Item>
            <span>{field.unit}</span>
          </Flex>
        </Form.Item>
      ))}
    </>
  );
}
