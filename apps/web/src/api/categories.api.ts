import { CATEGORY_PAGE_SIZE, type CategoryRow, type SaveCategoryBody } from '@release/contract';
import { api } from './client.ts';

export async function fetchCategories(signal?: AbortSignal): Promise<CategoryRow[]> {
  return (await api.get<CategoryRow[]>('/api/categorys', { pageNo: 1, pageSize: CATEGORY_PAGE_SIZE }, { signal })).data;
}

export async function saveCategory(body: SaveCategoryBody): Promise<void> {
  await api.post<unknown>('/api/category', body);
}

export async function deleteCategory(id: number): Promise<void> {
  await api.del<unknown>('/api/category', { id });
}
