import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { decodePageToken, paginate } from '../../shared/paging.ts';
import { authenticate, isPrincipal, type Principal } from '../auth.ts';
import { fail, ok, readPageSize } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';
import type { WikiNode, WikiSpace } from '../lark-state.ts';

const MAX_PAGE = 50;
const DEFAULT_PAGE = 20;
const wikiFail = (code: number, msg: string): FakeResponse => fail(400, code, msg);

/** Tenant tokens see the spaces the bot belongs to; user tokens see public spaces and their own. */
function canSee(principal: Principal, space: WikiSpace): boolean {
  if (principal.kind === 'tenant') return space.botIsMember;
  return space.visibility === 'public' || space.members.includes(principal.openId);
}

function presentSpace(space: WikiSpace): Record<string, unknown> {
  const { botIsMember: _bot, members: _members, ...fields } = space;
  return fields;
}

function presentNode(ctx: LarkContext, node: WikiNode): Record<string, unknown> {
  const hasChild = ctx.state.wikiNodes.some(
    (n) => n.space_id === node.space_id && n.parent_node_token === node.node_token,
  );
  return { ...node, has_child: hasChild };
}

function pageParams(req: FakeRequest, scope: string): { size: number; offset: number } | FakeResponse {
  const size = readPageSize(req.query.get('page_size'), MAX_PAGE, DEFAULT_PAGE);
  if (size === null) return wikiFail(131002, `param err: page_size must be 1-${MAX_PAGE}`);
  const offset = decodePageToken(req.query.get('page_token'), scope);
  if (offset === null) return wikiFail(131002, 'param err: invalid page_token');
  return { size, offset };
}

function listSpaces(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = authenticate(ctx, req, ['tenant', 'user']);
  if (!isPrincipal(principal)) return principal;
  const page = pageParams(req, 'spaces');
  if (!('size' in page)) return page;
  const visible = ctx.state.wikiSpaces.filter((s) => canSee(principal, s)).map(presentSpace);
  return ok(paginate(visible, page.offset, page.size, 'spaces'));
}

function findSpace(ctx: LarkContext, principal: Principal, spaceId: string): WikiSpace | undefined {
  if (spaceId !== 'my_library') return ctx.state.wikiSpaces.find((s) => s.space_id === spaceId);
  if (principal.kind !== 'user') return undefined;
  return ctx.state.wikiSpaces.find((s) => s.space_type === 'my_library' && s.members.includes(principal.openId));
}

function listNodes(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = authenticate(ctx, req, ['tenant', 'user']);
  if (!isPrincipal(principal)) return principal;
  const space = findSpace(ctx, principal, req.params.space_id ?? '');
  if (!space) return wikiFail(131005, 'not found: space');
  if (!canSee(principal, space)) return wikiFail(131006, 'permission denied: the caller is not a member of this space');
  const parent = req.query.get('parent_node_token') ?? '';
  if (parent && !ctx.state.wikiNodes.some((n) => n.space_id === space.space_id && n.node_token === parent))
    return wikiFail(131005, 'not found: parent node');
  const scope = `nodes|${space.space_id}|${parent}`;
  const page = pageParams(req, scope);
  if (!('size' in page)) return page;
  const children = ctx.state.wikiNodes
    .filter((n) => n.space_id === space.space_id && n.parent_node_token === parent)
    .map((n) => presentNode(ctx, n));
  return ok(paginate(children, page.offset, page.size, scope));
}

function getNode(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = authenticate(ctx, req, ['tenant', 'user']);
  if (!isPrincipal(principal)) return principal;
  const token = req.query.get('token');
  if (!token) return wikiFail(131002, 'param err: token is required');
  const objType = req.query.get('obj_type') ?? 'wiki';
  const node = ctx.state.wikiNodes.find((n) =>
    objType === 'wiki' ? n.node_token === token : n.obj_token === token && n.obj_type === objType,
  );
  if (!node) return wikiFail(131005, 'not found: node');
  const space = ctx.state.wikiSpaces.find((s) => s.space_id === node.space_id);
  if (!space || !canSee(principal, space)) return wikiFail(131006, 'permission denied');
  return ok({ node: presentNode(ctx, node) });
}

export function wikiRoutes(ctx: LarkContext): RouteDef[] {
  return [
    {
      name: 'wiki.space.list',
      method: 'GET',
      path: '/open-apis/wiki/v2/spaces',
      handler: (req) => listSpaces(ctx, req),
    },
    {
      name: 'wiki.get_node',
      method: 'GET',
      path: '/open-apis/wiki/v2/spaces/get_node',
      handler: (req) => getNode(ctx, req),
    },
    {
      name: 'wiki.node.list',
      method: 'GET',
      path: '/open-apis/wiki/v2/spaces/:space_id/nodes',
      handler: (req) => listNodes(ctx, req),
    },
  ];
}
