import { Card } from 'antd';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { zh } from '../../locales/zh-CN.ts';

/** /home/wiki: suite documents, shown once the Feishu integration is configured. */
export function WikiPage() {
  return (
    <Card data-testid="wiki-page">
      <FeatureEmpty title={zh.placeholders.wiki.title} content={zh.placeholders.wiki.content} />
    </Card>
  );
}
