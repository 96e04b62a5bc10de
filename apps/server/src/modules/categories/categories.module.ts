import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createCategoriesRepository } from './categories.repository.ts';
import { categoriesRoutes } from './categories.routes.ts';
import { createCategoriesService } from './categories.service.ts';

/** App categories. */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(
    categoriesRoutes(createCategoriesService({ categories: createCategoriesRepository(core.db), clock: core.clock })),
  );
}
