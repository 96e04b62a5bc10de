import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { categoryIdQuery, categoryListQuery, categoryRow, saveCategoryBody } from '@release/contract';
import { emptyEnvelope, envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import type { CategoriesService } from './categories.service.ts';

const tags = ['分类'];

export function categoriesRoutes(service: CategoriesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/categorys',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '分类列表',
          description: '登录用户。分页列出分类及每类的应用数；虚拟分类「未分类」（id 0）排在最后并计入 `total`。',
          querystring: categoryListQuery,
          response: { 200: pagedEnvelopeSchema(categoryRow) },
        },
      },
      async (req) => {
        const { rows, total } = await service.list(req.query.pageNo, req.query.pageSize);
        return ok(rows, { total });
      },
    );
    app.post(
      '/api/category',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '新建或编辑分类',
          description:
            '管理员（角色等级 100）。不带 `id` 为新建，带 `id` 为改名。名称已存在 409「分类名称已存在」；不能使用或修改「未分类」（409「未分类不能删除或修改」）；分类不存在 404。',
          body: saveCategoryBody,
          response: { 200: envelopeSchema(z.object({ id: z.number() })) },
        },
      },
      async (req) => ok(await service.save(req.body)),
    );
    app.delete(
      '/api/category',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '删除分类',
          description:
            '管理员（角色等级 100）。按 `id` 删除分类，分类中的应用不会被删除，而是变为「未分类」。分类不存在 404。',
          querystring: categoryIdQuery,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await service.remove(req.query.id);
        return ok(null);
      },
    );
  };
}
