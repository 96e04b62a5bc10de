import { useState } from 'react';
import { Button, Flex, Input, Modal, Tooltip } from 'antd';
import { FilterOutlined, SearchOutlined, SortAscendingOutlined } from '@ant-design/icons';
import type { AppListExtraInfo } from '@release/contract';
import { zh } from '../../locales/zh-CN.ts';
import { useAppFilter } from './app-filter.context.tsx';
import { AppFilterPanel } from './app-filter-panel.tsx';
import { AppSortRadios } from './app-sort-menu.tsx';

type ToolModal = 'search' | 'filter' | 'sort' | null;

/** On mobile the sider is 51 px wide: search, filter and sort open in modals (筛选, 排序, 搜索). */
export function SiderMobileTools({ extraInfo }: { extraInfo: AppListExtraInfo | undefined }) {
  const [openModal, setOpenModal] = useState<ToolModal>(null);
  const { search, setSearch } = useAppFilter();
  const close = (): void => setOpenModal(null);
  const tools = [
    { key: 'search' as const, title: zh.sider.searchTitle, icon: <SearchOutlined /> },
    { key: 'filter' as const, title: zh.sider.filterTitle, icon: <FilterOutlined /> },
    { key: 'sort' as const, title: zh.sider.sortTitle, icon: <SortAscendingOutlined /> },
  ];
  const common = { onCancel: close, footer: null, destroyOnHidden: true, width: 'min(420px, calc(100vw - 32px))' };

  return (
    <Flex vertical align="center" gap={6}>
      {tools.map((tool) => (
        <Tooltip key={tool.key} title={tool.title} placement="right">
          <Button
            icon={tool.icon}
            aria-label={tool.title}
            data-testid={`sider-${tool.key}-button`}
            type={tool.key === 'search' && search ? 'primary' : 'default'}
            onClick={() => setOpenModal(tool.key)}
          />
        </Tooltip>
      ))}
      <Modal {...common} title={zh.sider.searchTitle} open={openModal === 'search'}>
        <div data-testid="search-modal">
          <Input.Search
            allowClear
            autoFocus
            data-testid="app-search"
            placeholder={zh.sider.searchPlaceholder}
            defaultValue={search}
            onChange={(event) => setSearch(event.target.value)}
            onSearch={(value) => {
              setSearch(value);
              close();
            }}
          />
        </div>
      </Modal>
      <Modal {...common} title={zh.sider.filterTitle} open={openModal === 'filter'}>
        <div data-testid="filter-modal">
          <AppFilterPanel extraInfo={extraInfo} />
        </div>
      </Modal>
      <Modal {...common} title={zh.sider.sortTitle} open={openModal === 'sort'}>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the radios inside are the controls; a choice (a click, or space on a focused radio) bubbles up and closes the modal */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: as above: the keyboard reaches the radios themselves */}
        <div data-testid="sort-modal" onClick={close}>
          <AppSortRadios />
        </div>
      </Modal>
    </Flex>
  );
}
