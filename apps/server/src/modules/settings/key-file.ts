import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The server key's file in DATA_DIR: the first key line is the current key, further lines keys a rotation is moving off. */
export const KEY_FILE_NAME = 'secret.key';

const HEADER = [
  '# 发布系统 server key: it encrypts the secrets stored in the database and signs download links.',
  '# Back it up apart from the database; without it those secrets cannot be read. Never share it.',
  '# First key: current. A second key appears only while `npm run admin -- rotate-key` runs.',
];

export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, KEY_FILE_NAME);
}

/** A new random key (64 characters). */
export function generateKey(): string {
  return randomBytes(48).toString('base64url');
}

export interface KeyFile {
  keys: string[];
  /** The file can be read by other users of the machine (mode beyond 0600). */
  tooOpen: boolean;
}

/** The keys in the file, or null when there is no file. Throws on a file without a key. */
export function readKeyFile(file: string): KeyFile | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const keys = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (!keys.length) throw new Error(`${file} holds no key`);
  const short = keys.find((k) => k.length < 32);
  if (short !== undefined) throw new Error(`${file}: a key must be at least 32 characters`);
  const mode = fs.statSync(file).mode;
  return { keys, tooOpen: process.platform !== 'win32' && (mode & 0o077) !== 0 };
}

function fsyncDir(dir: string) {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Some platforms cannot open a directory; the rename is still atomic.
  }
}

function writeTemp(file: string, keys: string[]): string {
  const temp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    fs.writeSync(fd, `${[...HEADER, ...keys].join('\n')}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return temp;
}

/**
 * Writes the key file (mode 0600) so that a crash leaves either the old file or the new one, never a part.
 * `exclusive`: only when there is no file yet (answers false if another process wrote one first).
 */
export function writeKeyFile(file: string, keys: string[], options: { exclusive: boolean }): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = writeTemp(file, keys);
  try {
    if (options.exclusive) {
      try {
        fs.linkSync(temp, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      }
    } else {
      fs.renameSync(temp, file);
    }
    fsyncDir(path.dirname(file));
    return true;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
