import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeStaleWorkDirs } from './zsign-orphans.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zsign-work-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('removeStaleWorkDirs', () => {
  it('removes the work folders of runs a day old (their process died), keeps current ones and anything else', async () => {
    const now = Date.now();
    const make = (name: string, ageMs: number) => {
      const folder = path.join(root, name);
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 'resigned.ipa'), 'half');
      const at = new Date(now - ageMs);
      fs.utimesSync(folder, at, at);
    };
    make('release-resign-dead', 25 * 60 * 60_000);
    make('release-resign-running', 60_000);
    make('other-old', 48 * 60 * 60_000);
    expect(await removeStaleWorkDirs(root, now)).toBe(1);
    expect(fs.readdirSync(root).sort()).toEqual(['other-old', 'release-resign-running']);
    expect(await removeStaleWorkDirs(path.join(root, 'missing'), now)).toBe(0);
  });
});
