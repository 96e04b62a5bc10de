import { Card } from 'antd';
import { useParams } from 'react-router-dom';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { StandalonePage } from '../../app/components/standalone-page.tsx';
import { zh } from '../../locales/zh-CN.ts';

/** /commit: one commit log's detail. */
export function CommitDetailPage() {
  return (
    <StandalonePage>
      <FeatureEmpty title={zh.placeholders.commit.title} content={zh.placeholders.commit.content} />
    </StandalonePage>
  );
}

/** /test: the calendar view of commit activity. */
export function CalendarDemoPage() {
  return (
    <StandalonePage>
      <FeatureEmpty title={zh.placeholders.calendar.title} content={zh.placeholders.calendar.content} />
    </StandalonePage>
  );
}

/** /trend/:user (name trend): a member's commit trend, inside the home layout. */
export function TrendPage() {
  const { user = '' } = useParams();
  return (
    <Card data-testid="trend-page">
      <FeatureEmpty title={zh.placeholders.trend.title(user)} content={zh.placeholders.trend.content} />
    </Card>
  );
}
