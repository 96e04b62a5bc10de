import { RoutePath } from '@release/contract';

/** SPEC §2: /trend/{user} is nested under home and reached from a committer on the app page. */
const TREND_PREFIX = '/trend/';

/**
 * The top-menu entry a path belongs to ('' for none). A committer's trend is reached from the app page's items, so it
 * keeps 应用管理 highlighted.
 */
export function selectedMenuKey(pathname: string): string {
  if (pathname.startsWith(RoutePath.setting)) return RoutePath.setting;
  if (pathname.startsWith(RoutePath.wiki)) return RoutePath.wiki;
  if (pathname.startsWith(RoutePath.app) || pathname.startsWith(TREND_PREFIX)) return RoutePath.app;
  return '';
}
