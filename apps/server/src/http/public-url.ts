import type { FastifyRequest } from 'fastify';

/**
 * The base URL users reach us at, without a trailing slash: the configured PUBLIC_URL when set
 * (behind a proxy), else the request's own scheme and host.
 */
export function publicBaseUrl(request: FastifyRequest, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}
