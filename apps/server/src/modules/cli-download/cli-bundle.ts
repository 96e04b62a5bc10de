import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The CLI bundle as served: its bytes, compressed once, and an entity tag of its content. */
export interface CliBundle {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** sha256 of the identity bytes (base64url, 27 characters); each encoding's ETag adds its suffix. */
  hash: string;
}

export function prepareCliBundle(identity: Buffer): CliBundle {
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
    gzip: gzipSync(identity, { level: 9 }),
    hash: createHash('sha256').update(identity).digest('base64url').slice(0, 27),
  };
}

/** Where the bytes come from: a file, or a build (the sources). */
export type CliBundleSource = () => Promise<Buffer>;

/**
 * The bundle beside the server bundle (dist/release-cli.mjs, written by scripts/build-server.mjs); from the sources
 * (dev, tests) esbuild builds packages/cli in memory with the same settings (scripts/build-cli.mjs), so the served
 * file is always the checkout's CLI.
 */
export function defaultCliBundleSource(): CliBundleSource {
  if (!import.meta.url.endsWith('.ts')) return () => fs.readFile(new URL('./release-cli.mjs', import.meta.url));
  return async () => {
    const script: { buildCliBundle(): Promise<Buffer> } = await import(
      new URL('../../../../../scripts/build-cli.mjs', import.meta.url).href
    );
    return script.buildCliBundle();
  };
}

/** Loads and compresses once per process; a failed load is tried again on the next request. */
export function cachedCliBundle(source: CliBundleSource): () => Promise<CliBundle> {
  let pending: Promise<CliBundle> | null = null;
  return () => {
    pending ??= source().then(prepareCliBundle, (error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}
