import { useState } from 'react';
import { Button, Card, Flex, Select, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fetchWikiSpaces, wikiKeys } from '../../api/wiki.api.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { WikiTree } from './wiki-tree.tsx';
import { wikiText } from './wiki.strings.ts';
import './wiki.css';

/** /home/wiki: the team's Lark wiki spaces and their node trees, each document opening in Lark. */
export function WikiPage() {
  const spaces = useQuery({ queryKey: wikiKeys.spaces, queryFn: ({ signal }) => fetchWikiSpaces(signal) });
  const [chosen, setChosen] = useState<string | null>(null);

  if (spaces.isPending) {
    return (
      <Card data-testid="wiki-page">
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      </Card>
    );
  }
  if (spaces.isError) {
    return (
      <Card data-testid="wiki-page">
        <FeatureEmpty title={wikiText.loadFailed} content={spaces.error.message}>
          <Button onClick={() => void spaces.refetch()}>{wikiText.retry}</Button>
        </FeatureEmpty>
      </Card>
    );
  }
  const { configured, items } = spaces.data;
  if (!configured || items.length === 0) {
    return (
      <Card data-testid="wiki-page">
        <FeatureEmpty
          title={configured ? wikiText.noSpacesTitle : wikiText.notConfiguredTitle}
          content={configured ? wikiText.noSpaces : wikiText.notConfigured}
          testId={configured ? 'wiki-no-spaces' : 'wiki-not-configured'}
        />
      </Card>
    );
  }
  const spaceId = chosen !== null && items.some((s) => s.spaceId === chosen) ? chosen : (items[0]?.spaceId ?? '');
  const space = items.find((s) => s.spaceId === spaceId);
  return (
    <Card data-testid="wiki-page" title={wikiText.title}>
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{wikiText.subtitle}</Typography.Text>
        <Select
          className="wiki-space-select"
          value={spaceId}
          onChange={setChosen}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={wikiText.spacePlaceholder}
          aria-label={wikiText.space}
          options={items.map((s) => ({ value: s.spaceId, label: s.name }))}
          data-testid="wiki-space-select"
        />
        {space?.description ? <Typography.Text type="secondary">{space.description}</Typography.Text> : null}
        <WikiTree key={spaceId} spaceId={spaceId} />
      </Flex>
    </Card>
  );
}
