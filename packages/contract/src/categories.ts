import { z } from 'zod';
import { idParam, intFromQuery, pageQuery, trimmedName } from './common.ts';

export const categoryRow = z.object({ id: z.number(), categoryName: z.string(), appCount: z.number() });
export type CategoryRow = z.infer<typeof categoryRow>;

export const categoryListQuery = pageQuery.extend({ pageSize: intFromQuery.min(1).max(1000).default(1000) });
export const saveCategoryBody = z.object({ id: intFromQuery.min(1).optional(), categoryName: trimmedName });
export type SaveCategoryBody = z.infer<typeof saveCategoryBody>;
export const categoryIdQuery = z.object({ id: idParam });
