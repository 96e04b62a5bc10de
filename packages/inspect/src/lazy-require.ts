import { createRequire } from 'node:module';

/**
 * A CommonJS dependency loaded by its first use instead of when the server starts, so its code stays out of an idle
 * server's memory (node-forge alone is 42 files, ~1 MB of source). `from` is the importing module's
 * `import.meta.url` (where the name resolves); `setUp` runs once, on the loaded module.
 */
export function lazyRequire<T>(name: string, from: string, setUp?: (loaded: T) => void): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      const module = createRequire(from)(name) as T;
      setUp?.(module);
      loaded = module;
    }
    return loaded;
  };
}

/** The XML parser, loaded by the first XML plist or svn log read. */
export const xmldomLib = lazyRequire<typeof import('@xmldom/xmldom')>('@xmldom/xmldom', import.meta.url);
