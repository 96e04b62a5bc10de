import { useState } from 'react';
import { Button, Card, Flex, Segmented, Typography } from 'antd';
import { ArrowLeftOutlined, CalendarOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router-dom';
import { useIsAdmin } from '../../app/session.store.ts';
import { workflowsText } from '../workflows/workflows.strings.ts';
import { CommitBrowser, type CommitView } from './commit-browser.tsx';
import { commitsText } from './commits.strings.ts';

/** /trend/:user (name trend): one committer's update items across the apps the viewer can see. */
export function TrendPage() {
  const { user = '' } = useParams();
  const navigate = useNavigate();
  // Items span apps whose rights differ; admins may edit every one of them.
  const canEdit = useIsAdmin();
  const [view, setView] = useState<CommitView>('list');
  return (
    <Card data-testid="trend-page" styles={{ body: { paddingTop: 12 } }}>
      <Flex align="center" justify="space-between" gap={8} wrap style={{ marginBottom: 12 }}>
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            aria-label={commitsText.trend.back}
            onClick={() => navigate(-1)}
          />
          <Typography.Title level={4} style={{ margin: 0 }} ellipsis data-testid="trend-title">
            {commitsText.trend.title(user)}
          </Typography.Title>
        </Flex>
        <Segmented<CommitView>
          value={view}
          onChange={setView}
          data-testid="view-toggle"
          options={[
            { value: 'list', icon: <UnorderedListOutlined />, label: workflowsText.views.list },
            { value: 'calendar', icon: <CalendarOutlined />, label: workflowsText.views.calendar },
          ]}
        />
      </Flex>
      <CommitBrowser key={user} source={{ kind: 'user', user }} mode="trend" view={view} canEdit={canEdit} />
    </Card>
  );
}
