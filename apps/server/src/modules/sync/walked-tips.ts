import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { decodeJson } from '../../lib/decode-json.ts';
import type { WorkflowRecord } from '../workflows/workflows.repository.ts';

/**
 * The branch tips a workflow's last complete sync walked, beside the mirrors (`sync-state/<id>.json`), kept with
 * the remote and branch filter they were read with: another remote or filter, or a truncated read, walks the whole
 * history again, and so does a tip that is not a stored item. Lost, damaged or hand-edited state (any field that
 * does not fit, one odd tip included) only costs a full walk; the stored commit ids still decide what is new.
 */
const walkedTips = z.object({
  remote: z.string(),
  branches: z.string(),
  tips: z.array(z.string().regex(/^[0-9a-f]{40,64}$/)),
});
type WalkedTips = z.output<typeof walkedTips>;
/** What the state is kept for: the workflow, its remote and its branch filter. */
type Source = Pick<WorkflowRecord, 'id' | 'repo_path' | 'default_branch'>;

export function walkedTipsFile(mirrorsDir: string, workflowId: number): string {
  return path.join(mirrorsDir, 'sync-state', `${workflowId}.json`);
}

/** The tips the workflow's last complete sync walked; none (a full walk) when the file is missing or does not fit. */
export async function readWalkedTips(mirrorsDir: string, workflow: Source): Promise<string[]> {
  const text = await fs.readFile(walkedTipsFile(mirrorsDir, workflow.id), 'utf8').catch(() => null);
  const state = text === null ? null : decodeJson(text, walkedTips);
  if (!state?.ok) return [];
  const { remote, branches, tips } = state.value;
  return remote === (workflow.repo_path ?? '') && branches === (workflow.default_branch ?? '') ? tips : [];
}

/** Keeps the tips a complete sync walked; null (a truncated read) forgets them. Never fails the sync. */
export async function writeWalkedTips(mirrorsDir: string, workflow: Source, tips: string[] | null): Promise<void> {
  const file = walkedTipsFile(mirrorsDir, workflow.id);
  try {
    if (tips === null) {
      await fs.rm(file, { force: true });
      return;
    }
    const state: WalkedTips = { remote: workflow.repo_path ?? '', branches: workflow.default_branch ?? '', tips };
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written aside and renamed (per process: two servers may sync at once), so no reader sees half a file.
    const aside = `${file}.${process.pid}.${randomUUID()}.tmp`;
    await fs.writeFile(aside, JSON.stringify(state));
    await fs.rename(aside, file).catch(async (error: unknown) => {
      await fs.rm(aside, { force: true });
      throw error;
    });
  } catch {
    // Only a shortcut: without it the next poll walks the whole history.
  }
}
