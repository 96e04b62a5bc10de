import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Text worth compressing: html, css, javascript, json, xml, svg, csv and other text/*. Never packages and
 * media (application/octet-stream, .apk, .ipa, zip, images, video): they are compressed already, and a
 * download must keep its length and entity tag so browsers and download managers can resume it.
 */
export const COMPRESSIBLE_TYPES =
  /^text\/(?!event-stream)|^application\/(?:[\w.+-]+\+)?(?:json|xml|javascript)(?:;|$)|^image\/svg\+xml(?:;|$)/i;

/**
 * Brotli or gzip, as the client's Accept-Encoding allows, for every text answer of 1 KiB or more: API JSON,
 * the OTA manifest, the Swagger UI. The web app's files are compressed at build time and sent as they are
 * (web-static.ts); a ranged request is answered from the identity bytes (Content-Range counts those).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // A Range names offsets of the unencoded file: drop the encodings, so neither the precompressed files nor
  // the compressor answer it (RFC 9110 §14: the range applies to the representation actually sent).
  app.addHook('onRequest', async (request) => {
    if (request.headers.range !== undefined) delete request.headers['accept-encoding'];
  });
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: COMPRESSIBLE_TYPES,
    // Request bodies are taken as sent (uploads stream to disk untouched).
    globalDecompression: false,
  });
}
