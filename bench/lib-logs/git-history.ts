import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { FILES_ARGS, LOG_FORMAT } from '../../apps/server/src/integrations/git/git-log-parser.ts';
import { fastImportLinearHistory, GitRepo } from '../../apps/server/src/integrations/git/testing/git-fixture.ts';

/**
 * The repository ingested: `main` of MAIN_COMMITS linear commits (fastImportLinearHistory: a message with a body and
 * one changed file each), `release/2.x` forked RELEASE_FORK commits below the tip with RELEASE_COMMITS of its own,
 * and an annotated tag every TAG_EVERY commits of main. 100,000 commits in all.
 */
export const MAIN_COMMITS = 99_000;
export const RELEASE_COMMITS = 1_000;
const RELEASE_FORK = 5_000;
const TAG_EVERY = 1_000;
export const START = 1_700_000_000;

export function buildHistory(dir: string, main = MAIN_COMMITS, release = RELEASE_COMMITS): GitRepo {
  const repo = GitRepo.init(dir);
  fastImportLinearHistory(repo, 'main', main, START);
  const ids = repo.git(['rev-list', '--first-parent', 'main']).trim().split('\n').reverse();
  const fork = ids[Math.max(0, ids.length - 1 - Math.min(RELEASE_FORK, ids.length - 1))] ?? '';
  const parts: string[] = [];
  const data = (text: string) => [`data ${Buffer.byteLength(text)}`, text];
  for (let i = 1; i <= release; i += 1) {
    const who = i % 3 === 0 ? 'Ola Berg <ola@corp.test>' : 'Release Bot <release@corp.test>';
    const time = START + main - RELEASE_FORK + i * 2;
    parts.push(
      'commit refs/heads/release/2.x',
      `author ${who} ${time} +0000`,
      `committer ${who} ${time} +0000`,
      ...data(`fix(release): backport ${i}\n`),
    );
    if (i === 1) parts.push(`from ${fork}`);
    parts.push(`M 100644 inline release/notes-${i % 20}.md`, ...data(`note ${i}\n`));
  }
  for (let i = TAG_EVERY; i <= ids.length; i += TAG_EVERY) {
    parts.push(
      `tag v1.${i / TAG_EVERY}.0`,
      `from ${ids[i - 1] ?? ''}`,
      `tagger Release Bot <release@corp.test> ${START + i} +0000`,
      ...data(`版本 1.${i / TAG_EVERY}.0\n`),
    );
  }
  repo.git(['fast-import', '--quiet'], {}, `${parts.join('\n')}\n`);
  return repo;
}

/**
 * The reference: `git log` over every ref of the repository, our format, written to /dev/null; withFiles adds the
 * ingest's FILES_ARGS, so git prints exactly what the ingest reads and stores (each commit's changed files).
 */
export function timeGitLog(gitDir: string, withFiles: boolean): number {
  const args = [
    `--git-dir=${gitDir}`,
    'log',
    '--all',
    '--date-order',
    '-z',
    LOG_FORMAT,
    ...(withFiles ? FILES_ARGS : []),
  ];
  const devNull = fs.openSync('/dev/null', 'w');
  try {
    const started = performance.now();
    const result = spawnSync('git', args, {
      stdio: ['ignore', devNull, 'pipe'],
      env: { ...process.env, LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' },
    });
    const ms = performance.now() - started;
    if (result.status !== 0) throw new Error(`git log failed: ${result.stderr.toString()}`);
    return ms;
  } finally {
    fs.closeSync(devNull);
  }
}

/** Commits reachable from every ref (what both sides walk). */
export function countCommits(gitDir: string): number {
  const result = spawnSync('git', [`--git-dir=${gitDir}`, 'rev-list', '--all', '--count'], { encoding: 'utf8' });
  return Number(result.stdout.trim());
}
