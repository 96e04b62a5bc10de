import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { categoryIdQuery, categoryListQuery, categoryRow, saveCategoryBody } from '@release/contract';
import { emptyEnvelope, envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import type { CategoriesService } from './categories.service.ts';

const tags = ['categories'];

export function categoriesRoutes(service: CategoriesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/categorys', { config: { access: 'user' }, schema: { tags, querystring: categoryListQuery, response: { 200: pagedEnvelopeSchema(categoryRow) } } }, async (req) => {
      const { rows, total } = await service.list(req.query.pageNo, req.query.pageSize);
      return ok(rows, { total });
    });
    app.post('/api/category', { config: { access: 'admin' }, schema: { tags, body: saveCategoryBody, response: { 200: envelopeSchema(z.object({ id: z.number() })) } } }, async (req) =>
      ok(await service.save(req.body)),
    );
    app.delete('/api/category', { config: { access: 'admin' }, schema: { tags, querystring: categoryIdQuery, response: { 200: emptyEnvelope } } }, async (req) => {
      await service.remove(req.query.id);
      return ok(null);
    });
  };
}
