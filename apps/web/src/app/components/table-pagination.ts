import type { TablePaginationConfig } from 'antd';
import { TABLE_PAGE_SIZES } from '@release/contract';
import { zh } from '../../locales/zh-CN.ts';

interface PageState {
  total: number;
  pageNo: number;
  pageSize: number;
  onChange: (pageNo: number, pageSize: number) => void;
  sizes?: readonly number[];
}

/** SPEC §9 table paging: "共 N 条", sizes 10/20/50/100, shown only when total exceeds the page size. */
export function tablePagination({
  total,
  pageNo,
  pageSize,
  onChange,
  sizes = TABLE_PAGE_SIZES,
}: PageState): TablePaginationConfig | false {
  if (total <= pageSize) return false;
  return {
    current: pageNo,
    pageSize,
    total,
    showSizeChanger: sizes.length > 1,
    pageSizeOptions: sizes.map(String),
    showTotal: (count) => zh.common.total(count),
    onChange,
  };
}
