import { Button, Divider, Flex, Input, Layout, Tooltip } from 'antd';
import { AppstoreOutlined, MobileOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';
import { RoutePath, SIDER_COLLAPSED_WIDTH, SIDER_WIDTH } from '@release/contract';
import { useIsAdmin } from '../../app/session.store.ts';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { zh } from '../../locales/zh-CN.ts';
import { useAddAppModal } from './add-app.modal.tsx';
import { defaultAppFilter, useAppFilter } from './app-filter.context.tsx';
import { AppFilterPanel } from './app-filter-panel.tsx';
import { AppList } from './app-list.tsx';
import { AppSortMenu } from './app-sort-menu.tsx';
import { PublishButton } from './publish-button.tsx';
import { SiderMobileTools } from './sider-mobile-tools.tsx';
import { useAppList, useCurrentApp } from './use-app-list.ts';
import { useChooseApp } from './use-choose-app.ts';

/** The left sider of SPEC §2 Home layout: 260 px, 51 px on mobile. */
export function AppSider() {
  const isMobile = useIsMobile();
  const isAdmin = useIsAdmin();
  const { filter, search, setSearch } = useAppFilter();
  const list = useAppList();
  const currentApp = useCurrentApp(list.apps, list.isLoaded);
  const chooseApp = useChooseApp();
  const [addAppModal, openAddApp] = useAddAppModal();
  const isFiltered = JSON.stringify(filter) !== JSON.stringify(defaultAppFilter);

  const appList = (
    <AppList
      apps={list.visibleApps}
      hasAnyApp={list.apps.length > 0 || isFiltered}
      isLoading={list.isLoading}
      error={list.error}
      currentAppId={currentApp?.appId ?? null}
      compact={isMobile}
      onChoose={chooseApp}
    />
  );

  return (
    <Layout.Sider
      className="app-sider"
      theme="light"
      width={SIDER_WIDTH}
      collapsedWidth={SIDER_COLLAPSED_WIDTH}
      collapsed={isMobile}
      trigger={null}
      data-testid="app-sider"
    >
      {isMobile ? (
        <Flex vertical align="center" gap={6} style={{ padding: '10px 0' }}>
          <PublishButton currentApp={currentApp} compact onAddApp={openAddApp} />
          <SiderMobileTools extraInfo={list.extraInfo} />
          {isAdmin ? (
            <>
              <Tooltip title={zh.sider.category} placement="right">
                <Link to={RoutePath.category} data-testid="sider-category-link">
                  <Button icon={<AppstoreOutlined />} aria-label={zh.sider.category} />
                </Link>
              </Tooltip>
              <Tooltip title={zh.sider.udid} placement="right">
                <Link to={RoutePath.udid} data-testid="sider-udid-link">
                  <Button icon={<MobileOutlined />} aria-label={zh.sider.udid} />
                </Link>
              </Tooltip>
            </>
          ) : null}
          <Divider style={{ margin: '4px 0' }} />
          {appList}
        </Flex>
      ) : (
        <Flex vertical gap={10} style={{ padding: 12 }}>
          <PublishButton currentApp={currentApp} compact={false} onAddApp={openAddApp} />
          {isAdmin ? (
            <Flex gap={16} style={{ padding: '0 4px' }}>
              <Link to={RoutePath.category} data-testid="sider-category-link">
                <AppstoreOutlined /> {zh.sider.category}
              </Link>
              <Link to={RoutePath.udid} data-testid="sider-udid-link">
                <MobileOutlined /> {zh.sider.udid}
              </Link>
            </Flex>
          ) : null}
          <Input.Search
            allowClear
            data-testid="app-search"
            placeholder={zh.sider.searchPlaceholder}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          <AppFilterPanel extraInfo={list.extraInfo} />
          <div>
            <AppSortMenu />
          </div>
          <Divider style={{ margin: 0 }} />
          {appList}
        </Flex>
      )}
      {addAppModal}
    </Layout.Sider>
  );
}
