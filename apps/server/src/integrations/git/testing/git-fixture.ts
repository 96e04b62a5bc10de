import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Person {
  name: string;
  email: string;
}

export interface CommitSpec {
  message: string;
  author: Person;
  /** Epoch seconds, used for author and committer dates so date order is deterministic. */
  time: number;
  /** Path → content; null deletes the file. */
  files?: Record<string, string | null>;
}

/** A scratch directory for one test file; call `cleanup` in afterAll. */
export function createSandbox(prefix: string): { dir: string; path: (name: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, path: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Isolates fixtures from the machine's git configuration. */
function fixtureEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', ...extra };
}

/** A real working repository driven by the system git, with fully controlled authors and dates. */
export class GitRepo {
  readonly url: string;

  constructor(readonly dir: string) {
    this.url = pathToFileURL(dir).href;
  }

  static init(dir: string, branch = 'main'): GitRepo {
    mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '--quiet', '-b', branch, dir], { env: fixtureEnv() });
    return new GitRepo(dir);
  }

  git(args: string[], extraEnv: Record<string, string> = {}, input?: string): string {
    return execFileSync('git', args, {
      cwd: this.dir,
      env: fixtureEnv(extraEnv),
      encoding: 'utf8',
      input,
      maxBuffer: 256 * 1024 * 1024,
    });
  }

  commit(spec: CommitSpec): string {
    for (const [path, content] of Object.entries(spec.files ?? {})) {
      const full = join(this.dir, path);
      if (content === null) {
        this.git(['rm', '--quiet', '--', path]);
      } else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, content);
        this.git(['add', '--', path]);
      }
    }
    this.git(
      ['commit', '--quiet', '--allow-empty', '--cleanup=verbatim', '-m', spec.message],
      this.identity(spec.author, spec.time),
    );
    return this.head();
  }

  merge(branch: string, message: string, author: Person, time: number): string {
    this.git(['merge', '--quiet', '--no-ff', '-m', message, branch], this.identity(author, time));
    return this.head();
  }

  checkout(branch: string, create = false): void {
    this.git(create ? ['checkout', '--quiet', '-b', branch] : ['checkout', '--quiet', branch]);
  }

  tag(name: string, message: string | null, author: Person, time: number, target = 'HEAD'): void {
    this.git(
      message === null ? ['tag', name, target] : ['tag', '-a', name, '-m', message, target],
      this.identity(author, time),
    );
  }

  head(): string {
    return this.git(['rev-parse', 'HEAD']).trim();
  }

  private identity(person: Person, time: number): Record<string, string> {
    const date = `${time} +0800`;
    return {
      GIT_AUTHOR_NAME: person.name,
      GIT_AUTHOR_EMAIL: person.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: person.name,
      GIT_COMMITTER_EMAIL: person.email,
      GIT_COMMITTER_DATE: date,
    };
  }
}

/**
 * Writes `count` linear commits on `branch` through `git fast-import` (one process, a few hundred ms for
 * thousands of commits). Commit i has message `commit <i>\n\nbody of <i>` and touches `file-<i % 50>.txt`.
 */
export function fastImportLinearHistory(repo: GitRepo, branch: string, count: number, startTime: number): void {
  const parts: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    const message = `commit ${i}\n\nbody of ${i}\n`;
    const content = `line ${i}\n`;
    const who = i % 2 === 0 ? 'Ola Berg <ola@corp.test>' : '米拉 <mira@corp.test>';
    parts.push(
      `commit refs/heads/${branch}`,
      `mark :${i}`,
      `author ${who} ${startTime + i} +0000`,
      `committer ${who} ${startTime + i} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
      ...(i > 1 ? [`from :${i - 1}`] : []),
      `M 100644 inline file-${i % 50}.txt`,
      `data ${Buffer.byteLength(content)}`,
      content,
    );
  }
  repo.git(['fast-import', '--quiet'], {}, `${parts.join('\n')}\n`);
}

/** readNewCommits' `known` over ids held by the test (a Set or a Map's keys). */
export function storedIn(ids: { has(id: string): boolean }): (commitIds: string[]) => Promise<ReadonlySet<string>> {
  return async (commitIds) => new Set(commitIds.filter((id) => ids.has(id)));
}
/** readNewCommits' `known` of an empty store: every commit is new. */
export const nothingStored = storedIn(new Set());
/** readNewCommits' `known` of a store that has every commit. */
export const everythingStored = async (commitIds: string[]): Promise<ReadonlySet<string>> => new Set(commitIds);
