import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A scratch directory for one test file; call `cleanup` in afterAll. */
export function createTempDir(): { write: (name: string, bytes: Buffer | string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'inspect-test-'));
  let counter = 0;
  return {
    write(name, bytes) {
      counter += 1;
      const path = join(dir, `${counter}-${name}`);
      writeFileSync(path, bytes);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
