import {
  UNCATEGORISED_NAME,
  type AppListExtraInfo,
  type AppListItem,
  type AppListQuery,
  type AppType,
} from '@release/contract';
import type { MediaLinks } from '../../http/media-links.ts';
import type { AppListViewer, AppsRepository } from './apps.repository.ts';

export function createAppsService(deps: { apps: AppsRepository; mediaLinks: MediaLinks }) {
  const { apps } = deps;
  return {
    async list(
      viewer: AppListViewer,
      query: AppListQuery,
    ): Promise<{ rows: AppListItem[]; extraInfo: AppListExtraInfo }> {
      const [rows, byType, editors] = await Promise.all([
        apps.list(viewer, query),
        apps.countByType(viewer, query),
        apps.editors(viewer),
      ]);
      const countOf = (type: string) => Number(byType.find((t) => t.appType === type)?.n ?? 0);
      return {
        rows: rows.map((r) => ({
          ...r,
          appType: r.appType as AppType,
          // The list is shown to those who may see each app: its icon link is signed for them.
          appIcon: deps.mediaLinks.signed(r.appIcon),
          categoryName: r.categoryName ?? UNCATEGORISED_NAME,
          collected: Boolean(r.collected),
          subscribed: Boolean(r.subscribed),
          unreadMessage: Number(r.unreadMessage ?? 0),
        })),
        extraInfo: {
          total: byType.reduce((sum, t) => sum + Number(t.n), 0),
          native: countOf('native'),
          unity: countOf('unity'),
          appEditors: editors.map((e) => ({ ...e, count: Number(e.count) })),
        },
      };
    },
  };
}
export type AppsService = ReturnType<typeof createAppsService>;
