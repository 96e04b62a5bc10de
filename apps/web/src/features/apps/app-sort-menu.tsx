import { Button, Dropdown, Radio } from 'antd';
import { SortAscendingOutlined, SortDescendingOutlined } from '@ant-design/icons';
import { zh } from '../../locales/zh-CN.ts';
import { useAppFilter } from './app-filter.context.tsx';
import { sortKeyOf, sortOptions } from './app-sort.options.ts';

function useSortSelection() {
  const { filter, setSort } = useAppFilter();
  const selectedKey = sortKeyOf(filter.orderByColumn, filter.sort);
  const choose = (key: string): void => {
    const option = sortOptions.find((o) => o.key === key);
    if (option) setSort(option.column, option.sort);
  };
  return { selectedKey, choose, isAscending: filter.sort === 'ASC' };
}

/** Desktop: a dropdown menu of the six sort orders. */
export function AppSortMenu() {
  const { selectedKey, choose, isAscending } = useSortSelection();
  const current = sortOptions.find((o) => o.key === selectedKey);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: sortOptions.map((o) => ({ key: o.key, label: o.label })),
        selectable: true,
        selectedKeys: [selectedKey],
        onClick: ({ key }) => choose(key),
      }}
    >
      <Button
        size="small"
        data-testid="sort-menu"
        icon={isAscending ? <SortAscendingOutlined /> : <SortDescendingOutlined />}
      >
        {current?.label ?? zh.sider.sortTitle}
      </Button>
    </Dropdown>
  );
}

/** Mobile: the same choices as a radio list inside the 排序 modal. */
export function AppSortRadios() {
  const { selectedKey, choose } = useSortSelection();
  return (
    <Radio.Group
      data-testid="sort-radios"
      vertical
      value={selectedKey}
      onChange={(event) => choose(String(event.target.value))}
      options={sortOptions.map((o) => ({ value: o.key, label: o.label }))}
    />
  );
}
