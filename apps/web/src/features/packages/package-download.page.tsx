import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { StandalonePage } from '../../app/components/standalone-page.tsx';
import { zh } from '../../locales/zh-CN.ts';

/** /package/:path, /ios/:path, /android/:path: the testers' download page, public. */
export function PackageDownloadPage() {
  return (
    <StandalonePage>
      <FeatureEmpty title={zh.placeholders.packageDownload.title} content={zh.placeholders.packageDownload.content} />
    </StandalonePage>
  );
}
