import { Card, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fetchAppList } from '../../api/apps.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { zh } from '../../locales/zh-CN.ts';
import { defaultAppFilter } from '../apps/app-filter.context.tsx';
import { CommitCalendar } from '../calendar/commit-calendar.tsx';
import { useWorkflows } from '../workflows/use-workflows.ts';
import { displayCategories } from './commit-filter.ts';
import { CommitItemsWithMetadata } from './commit-list.tsx';
import { commitsText } from './commits.strings.ts';

const text = commitsText.demo;

/** /test: the calendar on its own, fed by the first app's first workflow (or empty, and saying so). */
export function CalendarDemoPage() {
  const apps = useQuery({
    queryKey: queryKeys.appList(defaultAppFilter),
    queryFn: ({ signal }) => fetchAppList(defaultAppFilter, signal),
  });
  const firstApp = apps.data?.apps[0] ?? null;
  const workflows = useWorkflows(firstApp?.appId ?? 0, firstApp !== null);
  const firstWorkflow = firstApp ? (workflows.data?.[0] ?? null) : null;
  const isLoading = apps.isPending || (firstApp !== null && workflows.isPending);

  return (
    <div className="standalone-page" style={{ alignItems: 'stretch' }}>
      <Typography.Title level={3} style={{ textAlign: 'center' }}>
        {zh.appTitle}
      </Typography.Title>
      <Card style={{ width: '100%', maxWidth: 1200, margin: '0 auto' }} title={text.title} data-testid="calendar-demo">
        {isLoading ? (
          <Spin style={{ display: 'block', margin: '48px auto' }} />
        ) : (
          <>
            <Typography.Paragraph type="secondary" data-testid="calendar-demo-source">
              {firstApp && firstWorkflow ? text.source(firstApp.appName, firstWorkflow.tabName) : text.empty}
            </Typography.Paragraph>
            <CommitCalendar
              source={firstWorkflow ? { kind: 'workflows', workflowIds: String(firstWorkflow.id) } : null}
              query={{ onlyCliff: true }}
              countPer="workflow"
              renderDayItems={(items) => (
                <CommitItemsWithMetadata
                  items={items}
                  byDay={false}
                  categories={displayCategories}
                  showSource={false}
                  renderMenu={() => null}
                />
              )}
            />
          </>
        )}
      </Card>
    </div>
  );
}
