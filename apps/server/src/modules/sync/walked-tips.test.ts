import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWalkedTips, walkedTipsFile, writeWalkedTips } from './walked-tips.ts';

describe('the walked tips kept beside the mirrors', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-walked-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const flow = { id: 7, repo_path: 'https://git.example.test/game.git', default_branch: 'main,dev' };
  const tips = ['a'.repeat(40), 'b'.repeat(64)];
  const damage = (text: string) => fs.writeFileSync(walkedTipsFile(dir, flow.id), text);

  it('reads back what a complete sync wrote, for the same remote and branch filter only', async () => {
    await writeWalkedTips(dir, flow, tips);
    expect(await readWalkedTips(dir, flow)).toEqual(tips);
    expect(await readWalkedTips(dir, { ...flow, default_branch: 'main' })).toEqual([]);
    expect(await readWalkedTips(dir, { ...flow, repo_path: 'https://git.example.test/other.git' })).toEqual([]);
    await writeWalkedTips(dir, flow, null);
    expect(fs.existsSync(walkedTipsFile(dir, flow.id))).toBe(false);
    expect(await readWalkedTips(dir, flow)).toEqual([]);
  });

  it('starts over (no tips: the next sync walks the whole history) when the file is damaged or hand-edited', async () => {
    const state = { remote: flow.repo_path, branches: flow.default_branch, tips };
    for (const text of [
      '{"remote": "https://git.exa',
      'null',
      '[]',
      JSON.stringify({ ...state, tips: 'aaaa' }),
      JSON.stringify({ ...state, tips: [...tips, 'HEAD~1'] }),
      JSON.stringify({ ...state, tips: [...tips, 42] }),
      JSON.stringify({ tips }),
    ]) {
      damage(text);
      expect(await readWalkedTips(dir, flow)).toEqual([]);
    }
    // The next complete sync writes it whole again.
    await writeWalkedTips(dir, flow, tips);
    expect(await readWalkedTips(dir, flow)).toEqual(tips);
  });
});
