import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Messages } from '@release/contract';
import { AppError } from './app-error.ts';
import type { AuthUser, SessionService } from '../modules/auth/session.service.ts';

/** Who may call a route: anyone, any signed-in user, or admins (role level 100). */
export type Access = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
    sessionToken: string | null;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
}

export function readToken(request: FastifyRequest): string | null {
  const header = request.headers.token;
  if (typeof header === 'string' && header) return header;
  // Sessions and API tokens (`rst_…`, for the CLI and CI) both arrive here; the scheme name is case-insensitive.
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return bearer?.[1] ?? null;
}

/** Every /api route must declare its access; the registry lets a test enumerate them all. */
export function registerAuth(app: FastifyInstance, sessions: SessionService): RouteAccess[] {
  const registry: RouteAccess[] = [];
  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} does not declare config.access`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') registry.push({ method, url: route.url, access });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access) return;
    const token = readToken(request);
    request.sessionToken = token;
    request.user = token ? await sessions.resolve(token) : null;
    if (access === 'public') return;
    if (!request.user) throw AppError.unauthorized(token ? Messages.tokenExpired : Messages.tokenMissing);
    if (access === 'admin' && !request.user.isAdmin) throw AppError.noPermission();
  });

  return registry;
}

/** The signed-in user of a route declared `user` or `admin`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw AppError.unauthorized();
  return request.user;
}
