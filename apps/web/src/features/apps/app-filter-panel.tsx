import { Checkbox, Flex, Radio, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { ALL_APP_TYPES, type AppListExtraInfo } from '@release/contract';
import type { AppListFilter } from '../../api/apps.api.ts';
import { fetchCategories } from '../../api/categories.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useIsAdmin } from '../../app/session.store.ts';
import { zh } from '../../locales/zh-CN.ts';
import { useAppFilter } from './app-filter.context.tsx';

type PlatformValue = AppListFilter['appType'];

/** Platform radio for everyone; category, developer and 只看收藏 for admins (SPEC §2). */
export function AppFilterPanel({ extraInfo }: { extraInfo: AppListExtraInfo | undefined }) {
  const isAdmin = useIsAdmin();
  const { filter, setAppType, setCategoryId, setDeveloperId, setViewCollect } = useAppFilter();
  const categories = useQuery({
    queryKey: queryKeys.categories,
    queryFn: ({ signal }) => fetchCategories(signal),
    enabled: isAdmin,
  });
  const platforms: { value: PlatformValue; label: string }[] = [
    { value: ALL_APP_TYPES, label: `${zh.common.all} ${extraInfo?.total ?? 0}` },
    { value: 'native', label: `native ${extraInfo?.native ?? 0}` },
    { value: 'unity', label: `unity ${extraInfo?.unity ?? 0}` },
  ];
  const allOption = { value: -1, label: zh.common.all };

  return (
    <Flex vertical gap={10} data-testid="app-filter">
      <Radio.Group
        data-testid="platform-filter"
        size="small"
        optionType="button"
        buttonStyle="solid"
        value={filter.appType}
        options={platforms}
        onChange={(event) => setAppType(event.target.value as PlatformValue)}
      />
      {isAdmin ? (
        <>
          <Flex align="center" gap={8}>
            <Typography.Text style={{ flex: 'none', width: 48 }}>{zh.sider.categoryLabel}</Typography.Text>
            <Select
              data-testid="category-filter"
              size="small"
              style={{ flex: 1, minWidth: 0 }}
              value={filter.categoryId}
              onChange={setCategoryId}
              loading={categories.isLoading}
              options={[
                allOption,
                ...(categories.data ?? []).map((c) => ({ value: c.id, label: `${c.categoryName} (${c.appCount})` })),
              ]}
            />
          </Flex>
          <Flex align="center" gap={8}>
            <Typography.Text style={{ flex: 'none', width: 48 }}>{zh.sider.developerLabel}</Typography.Text>
            <Select
              data-testid="developer-filter"
              size="small"
              style={{ flex: 1, minWidth: 0 }}
              value={filter.userId}
              onChange={setDeveloperId}
              showSearch={{ optionFilterProp: 'label' }}
              options={[
                allOption,
                ...(extraInfo?.appEditors ?? []).map((e) => ({ value: e.userId, label: `${e.userName} (${e.count})` })),
              ]}
            />
          </Flex>
          <Checkbox
            data-testid="collect-filter"
            checked={filter.viewCollect}
            onChange={(event) => setViewCollect(event.target.checked)}
          >
            {zh.sider.onlyCollected}
          </Checkbox>
        </>
      ) : null}
    </Flex>
  );
}
