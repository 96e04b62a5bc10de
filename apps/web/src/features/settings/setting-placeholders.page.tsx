import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { zh } from '../../locales/zh-CN.ts';

/** Settings children whose features are not enabled yet: say what they are for. */
export function DistributeUserPage() {
  return <FeatureEmpty title={zh.placeholders.distributeUser.title} content={zh.placeholders.distributeUser.content} />;
}
