import {
  Messages,
  UNCATEGORISED_ID,
  UNCATEGORISED_NAME,
  type CategoryRow,
  type SaveCategoryBody,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CategoriesRepository } from './categories.repository.ts';

export function createCategoriesService(deps: { categories: CategoriesRepository; clock: Clock }) {
  const { categories, clock } = deps;
  return {
    /** Categories with app counts; the virtual 未分类 (id 0) is the last item, counted in the total. */
    async list(pageNo: number, pageSize: number): Promise<{ rows: CategoryRow[]; total: number }> {
      const offset = (pageNo - 1) * pageSize;
      const { rows, total } = await categories.list(offset, pageSize);
      // 未分类 sits at index `total`: only the page covering that index shows it, so it never
      // overfills a page nor repeats on the pages after it.
      const holdsUncategorised = total >= offset && total < offset + pageSize;
      if (!holdsUncategorised) return { rows, total: total + 1 };
      const uncategorised = {
        id: UNCATEGORISED_ID,
        categoryName: UNCATEGORISED_NAME,
        appCount: await categories.countUncategorisedApps(),
      };
      return { rows: [...rows, uncategorised], total: total + 1 };
    },

    async save(body: SaveCategoryBody): Promise<{ id: number }> {
      if (body.categoryName === UNCATEGORISED_NAME) throw AppError.conflict(Messages.categoryBuiltin);
      const sameName = await categories.findByName(body.categoryName);
      if (sameName && sameName.id !== body.id) throw AppError.conflict(Messages.categoryExists);
      if (body.id === undefined) return { id: await categories.insert(body.categoryName, clock.now()) };
      if (!(await categories.findById(body.id))) throw AppError.notFound(Messages.categoryNotFound);
      await categories.rename(body.id, body.categoryName);
      return { id: body.id };
    },

    async remove(id: number) {
      if (!(await categories.findById(id))) throw AppError.notFound(Messages.categoryNotFound);
      await categories.delete(id);
    },
  };
}
export type CategoriesService = ReturnType<typeof createCategoriesService>;
