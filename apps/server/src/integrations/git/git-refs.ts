import { GitError, runGit } from './git-command.ts';

export interface RefSnapshot {
  /** Short branch name → commit sha. */
  branches: Map<string, string>;
  /** Tag name → the tag's object sha (the tag object for annotated tags, the commit for lightweight ones). */
  tags: Map<string, string>;
}

export interface TagRef {
  readonly name: string;
  /** The commit the tag finally points at; null for a tag of a tree or blob. */
  commitId: string | null;
  readonly annotated: boolean;
  /** The annotation without its signature, trailing line breaks removed; null for a lightweight tag. */
  readonly message: string | null;
}

const REF_TIMEOUT_MS = 60_000;
const END = '\u001e';

/** Every branch and tag of a bare repository with the object it points at. */
export async function readRefs(gitDir: string): Promise<RefSnapshot> {
  const { stdout } = await runGit(['for-each-ref', '--format=%(refname)%00%(objectname)', 'refs/heads', 'refs/tags'], {
    gitDir,
    timeoutMs: REF_TIMEOUT_MS,
  });
  const snapshot: RefSnapshot = { branches: new Map(), tags: new Map() };
  for (const line of stdout.split('\n')) {
    if (line === '') continue;
    const [ref = '', sha = ''] = line.split('\0');
    if (ref.startsWith('refs/heads/')) snapshot.branches.set(ref.slice('refs/heads/'.length), sha);
    else if (ref.startsWith('refs/tags/')) snapshot.tags.set(ref.slice('refs/tags/'.length), sha);
  }
  return snapshot;
}

/** The branch the mirror's HEAD names (the remote's default branch at clone time), or null. */
export async function readHeadBranch(gitDir: string): Promise<string | null> {
  const { stdout, exitCode } = await runGit(
    ['symbolic-ref', '--quiet', 'HEAD'],
    { gitDir, timeoutMs: REF_TIMEOUT_MS },
    [0, 1],
  );
  const ref = stdout.trim();
  return exitCode === 0 && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

/** A tag name safe to hand to git on a line of its own (no spaces, no `..`, no revision syntax). */
const PLAIN_TAG = /^(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._+-][A-Za-z0-9._+/-]{0,199}$/;

/**
 * The commit each of a few named tags peels to (names missing, not tags of a commit, or not plain are left out), in
 * one `git cat-file --batch-check` however many tags the repository has: a publish looks up its candidate tags
 * without listing all of them.
 */
export async function tagCommits(gitDir: string, names: readonly string[]): Promise<Map<string, string>> {
  const wanted = names.filter((name) => PLAIN_TAG.test(name) && !name.endsWith('.lock') && !name.endsWith('/'));
  const found = new Map<string, string>();
  if (wanted.length === 0) return found;
  const { stdout } = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    gitDir,
    timeoutMs: REF_TIMEOUT_MS,
    input: `${wanted.map((name) => `refs/tags/${name}^{commit}`).join('\n')}\n`,
  });
  stdout.split('\n').forEach((line, index) => {
    const [sha = '', type = ''] = line.split(' ');
    const name = wanted[index];
    if (name !== undefined && type === 'commit' && /^[0-9a-f]{40,64}$/.test(sha)) found.set(name, sha);
  });
  return found;
}

/** All tags, sorted by name, with the commit each one peels to and its annotation. */
export async function listTags(gitDir: string): Promise<TagRef[]> {
  const format = [
    '%(refname)',
    '%(objecttype)',
    '%(objectname)',
    '%(*objecttype)',
    '%(*objectname)',
    '%(contents)',
    `%(contents:signature)${END}`,
  ].join('%00');
  const { stdout } = await runGit(['for-each-ref', `--format=${format}`, 'refs/tags'], {
    gitDir,
    timeoutMs: REF_TIMEOUT_MS,
  });
  const tags: TagRef[] = [];
  const nested: TagRef[] = [];
  for (const record of stdout.split(`${END}\n`)) {
    if (record === '') continue;
    const fields = record.split('\0');
    if (fields.length !== 7) throw new GitError('bad_output', `for-each-ref record with ${fields.length} fields`);
    const [ref = '', type = '', sha = '', peeledType = '', peeledSha = '', contents = '', signature = ''] = fields;
    const name = ref.slice('refs/tags/'.length);
    if (type === 'commit') {
      tags.push({ name, commitId: sha, annotated: false, message: null });
    } else if (type === 'tag') {
      const text = signature && contents.endsWith(signature) ? contents.slice(0, -signature.length) : contents;
      const tag: TagRef = {
        name,
        commitId: peeledType === 'commit' ? peeledSha : null,
        annotated: true,
        message: text.replace(/[\r\n]+$/, ''),
      };
      tags.push(tag);
      if (peeledType === 'tag') nested.push(tag);
    }
  }
  await peelNestedTags(gitDir, nested);
  return tags;
}

/** `%(*objectname)` peels one level only; a tag of a tag is resolved to its commit in one batch call. */
async function peelNestedTags(gitDir: string, nested: TagRef[]): Promise<void> {
  if (nested.length === 0) return;
  const input = nested.map((tag) => `refs/tags/${tag.name}^{commit}`).join('\n');
  const { stdout } = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    gitDir,
    timeoutMs: REF_TIMEOUT_MS,
    input: `${input}\n`,
  });
  stdout.split('\n').forEach((line, index) => {
    const [sha = '', type = ''] = line.split(' ');
    const tag = nested[index];
    if (tag && type === 'commit') tag.commitId = sha;
  });
}

/** Tags grouped by the commit they point at, in name order. */
export function groupTagsByCommit(tags: readonly TagRef[]): Map<string, TagRef[]> {
  const byCommit = new Map<string, TagRef[]>();
  for (const tag of tags) {
    if (tag.commitId === null) continue;
    const list = byCommit.get(tag.commitId);
    if (list) list.push(tag);
    else byCommit.set(tag.commitId, [tag]);
  }
  return byCommit;
}
