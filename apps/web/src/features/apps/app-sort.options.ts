import { appSortColumns } from '@release/contract';
import { zh } from '../../locales/zh-CN.ts';

export type SortColumn = (typeof appSortColumns)[number];
export type SortDirection = 'ASC' | 'DESC';

export interface SortOption {
  key: string;
  column: SortColumn;
  sort: SortDirection;
  label: string;
}

/** 最后更新时间 / 名称 / 创建时间, each 升序 and 降序. */
export const sortOptions: SortOption[] = appSortColumns.flatMap((column) =>
  (['ASC', 'DESC'] as const).map((sort) => ({
    key: `${column}:${sort}`,
    column,
    sort,
    label: `${zh.sider.sortColumns[column]} ${sort === 'ASC' ? zh.sider.asc : zh.sider.desc}`,
  })),
);

export function sortKeyOf(column: SortColumn, sort: SortDirection): string {
  return `${column}:${sort}`;
}
