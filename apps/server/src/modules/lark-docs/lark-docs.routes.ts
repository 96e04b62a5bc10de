import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { larkDocFollow, larkDocFollowsQuery, setLarkDocFollowsBody, wikiNode, wikiNodeListQuery, wikiSpaceList } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { LarkDocFollowsService } from './lark-doc-follows.service.ts';
import type { WikiService } from './wiki.service.ts';

/** SPEC §7 wiki/space/list and wiki/node/list (shapes ours), and the documents a wiki workflow follows. */
export function larkDocsRoutes(deps: { wiki: WikiService; follows: LarkDocFollowsService }): FastifyPluginAsyncZod {
  const { wiki, follows } = deps;
  return async (app) => {
    app.get(
      '/api/wiki/space/list',
      { config: { access: 'user' }, schema: { tags: ['wiki'], description: 'Wiki spaces the Lark app belongs to (all pages); configured=false when Lark is not set up.', response: { 200: envelopeSchema(wikiSpaceList) } } },
      async () => ok(await wiki.spaces()),
    );
    app.get(
      '/api/wiki/node/list',
      { config: { access: 'user' }, schema: { tags: ['wiki'], description: 'One level of a space node tree (all pages).', querystring: wikiNodeListQuery, response: { 200: envelopeSchema(z.array(wikiNode)) } } },
      async (req) => ok(await wiki.nodes(req.query.spaceId, req.query.parentNodeToken)),
    );
    app.get(
      '/api/workflow/lark_docs',
      { config: { access: 'user' }, schema: { tags: ['workflows'], description: 'Lark documents a wiki workflow follows.', querystring: larkDocFollowsQuery, response: { 200: envelopeSchema(z.array(larkDocFollow)) } } },
      async (req) => ok(await follows.list(currentUser(req), req.query.workflowId)),
    );
    app.post(
      '/api/workflow/lark_docs',
      { config: { access: 'user' }, schema: { tags: ['workflows'], description: 'Replace the followed documents; new ones are subscribed at Lark.', body: setLarkDocFollowsBody, response: { 200: envelopeSchema(z.array(larkDocFollow)) } } },
      async (req) => ok(await follows.replace(currentUser(req), req.body.workflowId, req.body.sources)),
    );
  };
}
