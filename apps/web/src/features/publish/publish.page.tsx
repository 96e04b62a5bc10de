import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { StandalonePage } from '../../app/components/standalone-page.tsx';
import { zh } from '../../locales/zh-CN.ts';

/** /publish, opened in a new window from the sider's publish button. */
export function PublishPage() {
  return (
    <StandalonePage>
      <FeatureEmpty title={zh.placeholders.publish.title} content={zh.placeholders.publish.content} />
    </StandalonePage>
  );
}

/** /publish-success: the new version's link and QR code after publishing. */
export function PublishSuccessPage() {
  return (
    <StandalonePage>
      <FeatureEmpty title={zh.placeholders.publishSuccess.title} content={zh.placeholders.publishSuccess.content} />
    </StandalonePage>
  );
}
