import { Col, Form, Select } from 'antd';
import { BUNDLE_ID_PATTERN, BUNDLE_IDS_MAX, bundleIdLabels, bundleIdPlatforms } from '@release/contract';
import type { FormRule } from 'antd';

export const bundleIdText = {
  placeholder: '首次上传该平台的安装包时自动填入',
  hint: '可填写多个（如渠道包），第一个显示在应用头部；上传其他包名的安装包时需要确认',
  invalid: (id: string) => `包名格式不正确：${id}（只能包含字母、数字、点、-和_）`,
  tooMany: `每个平台最多 ${BUNDLE_IDS_MAX} 个包名`,
} as const;

const listRule: FormRule = {
  validator: async (_rule, value: unknown) => {
    const list = Array.isArray(value) ? (value as string[]) : [];
    const bad = list.find((id) => !BUNDLE_ID_PATTERN.test(id.trim()));
    if (bad !== undefined) throw new Error(bundleIdText.invalid(bad));
    if (list.length > BUNDLE_IDS_MAX) throw new Error(bundleIdText.tooMany);
  },
};

/** The platforms share a row on wide screens, whatever their number (24 columns). */
const columns = Math.floor(24 / bundleIdPlatforms.length);

/** The ids packages must carry, one tag list per platform (web packages have none). */
export function BundleIdFields() {
  return bundleIdPlatforms.map((platform, index) => (
    <Col key={platform} xs={24} md={columns}>
      <Form.Item
        name={['bundleIds', platform]}
        label={bundleIdLabels[platform]}
        rules={[listRule]}
        extra={index === 0 ? bundleIdText.hint : undefined}
      >
        <Select
          mode="tags"
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', '，', ' ']}
          placeholder={bundleIdText.placeholder}
          data-testid={`app-bundle-ids-${platform}`}
        />
      </Form.Item>
    </Col>
  ));
}
