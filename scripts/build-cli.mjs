// release-cli as ONE self-contained file (`GET /cli/release-cli.mjs`): packages/cli with everything it imports
// (@release/contract, zod, @release/inspect for --skip-existing) bundled by esbuild, for any
// Node ≥ 20 without npm install — `curl -fsSL $SERVER/cli/release-cli.mjs | node - upload …` or a saved file.
// scripts/build-server.mjs writes it beside the server bundle (apps/server/dist/release-cli.mjs); the server
// running from its sources (dev, tests) builds it in memory on the first request (modules/cli-download).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const cliEntry = path.join(root, 'packages/cli/src/main.ts');

/**
 * The bundle's text. `sharp` (native, loaded by the inspectors only to convert WebP or layered icons, whose
 * failure they swallow) stays outside: the CLI only reads versions. CommonJS packages bundled into ESM call
 * `require` for Node's own modules, hence the banner's createRequire (import.meta.url is a file URL under
 * `node -` too).
 */
export async function buildCliBundle() {
  const { build, stop } = await import('esbuild');
  const result = await build({
    entryPoints: [cliEntry],
    bundle: true,
    write: false,
    outfile: 'release-cli.mjs',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['sharp'],
    // Smaller to download on every CI run; names stay readable in the stack of an exit-1 bug report.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __releaseCliRequire } from 'node:module'; const require = __releaseCliRequire(import.meta.url);",
    },
    logLevel: 'warning',
  }).finally(() => stop());
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild wrote no release-cli bundle');
  return Buffer.from(file.contents);
}
