import { Card } from 'antd';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { zh } from '../../locales/zh-CN.ts';

/** /home/udid (admins): iOS device IDs for ad-hoc installs. */
export function UdidPage() {
  return (
    <Card data-testid="udid-page">
      <FeatureEmpty title={zh.placeholders.udid.title} content={zh.placeholders.udid.content} />
    </Card>
  );
}
