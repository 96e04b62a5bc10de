import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A bundle built as scripts/build-server.mjs builds the server (ESM, linked map), run by Node without --enable-source-maps. */
describe('stack traces of the compiled server', () => {
  let dir: string;
  let bundle: string;
  const entry = (file: string) => path.join(dir, 'src', file);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stack-traces-'));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(
      entry('failing.ts'),
      [
        'interface Upload { size: number }',
        'export function refuse(upload: Upload): never {',
        "  throw new Error('too big: ' + String(upload.size));",
        '}',
        '',
      ].join('\n'),
    );
    fs.writeFileSync(
      entry('main.ts'),
      [
        `import { mapStackTracesLazily } from ${JSON.stringify(path.join(import.meta.dirname, 'stack-traces.ts'))};`,
        "import { refuse } from './failing.ts';",
        'if (!process.argv.includes("--raw")) mapStackTracesLazily(import.meta.url);',
        'try {',
        '  refuse({ size: 3 });',
        '} catch (error) {',
        '  console.log((error as Error).stack);',
        '}',
        '',
      ].join('\n'),
    );
    bundle = path.join(dir, 'dist', 'main.mjs');
    await build({
      entryPoints: [entry('main.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      sourcemap: 'linked',
      sourcesContent: false,
      logLevel: 'silent',
    });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = (...args: string[]) => {
    const result = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };

  it('names the TypeScript file and line where the error was thrown, with the message first', () => {
    const stack = run();
    expect(stack.split('\n')[0]).toBe('Error: too big: 3');
    expect(stack).toContain(`at refuse (${entry('failing.ts')}:3:9)`);
    expect(stack).toContain(`${entry('main.ts')}:5:3`);
    expect(stack).not.toContain('main.mjs');
  });

  it('is what the bundle alone would say without it', () => {
    const stack = run('--raw');
    expect(stack).toContain('main.mjs');
    expect(stack).not.toContain('failing.ts');
  });
});
