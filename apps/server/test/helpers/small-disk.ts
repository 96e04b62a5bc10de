import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A real small filesystem (a tmpfs of `sizeMb`) mounted on a temporary folder, to be filled up. Mounting needs root,
 * as the tests run here and in CI; elsewhere this fails saying so rather than pretending.
 */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the filesystem refuses (ENOSPC): not one byte is left. */
  fill(): void;
  /** Removes the filler. */
  free(): void;
  unmount(): Promise<void>;
}

export async function mountSmallDisk(sizeMb: number): Promise<SmallDisk> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-small-disk-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir]);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `mounting a ${sizeMb} MB tmpfs failed (the disk-full tests need root): ${(error as Error).message}`,
    );
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = fs.openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 1);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        fs.closeSync(fd);
      }
      // A last partial page may remain: smaller writes take it.
      const small = fs.openSync(filler, 'a');
      try {
        for (;;) fs.writeSync(small, Buffer.alloc(512, 1));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        fs.closeSync(small);
      }
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    async unmount() {
      await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
