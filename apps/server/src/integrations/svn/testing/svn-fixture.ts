import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

function run(command: string, args: string[], cwd?: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' } });
}

/** A real svn repository (`svnadmin create`) reached through file://, changed with the real svn client. */
export class SvnRepo {
  readonly url: string;

  private constructor(readonly dir: string) {
    this.url = pathToFileURL(dir).href;
  }

  static create(dir: string): SvnRepo {
    run('svnadmin', ['create', dir]);
    // Lets tests pin dates and remove authors, as an admin would with svn propset --revprop.
    const hook = join(dir, 'hooks', 'pre-revprop-change');
    writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    chmodSync(hook, 0o755);
    return new SvnRepo(dir);
  }

  svn(args: string[], cwd?: string): string {
    return run('svn', ['--non-interactive', '--no-auth-cache', ...args], cwd);
  }

  /** `svnmucc` actions (mkdir, cp, put, rm ...) as one revision. */
  mucc(author: string, message: string, actions: string[]): void {
    run('svnmucc', ['--non-interactive', '-U', this.url, '--username', author, '-m', message, ...actions]);
  }

  /** `svn import` of the given files into `target` (relative to the root). */
  importFiles(author: string, message: string, target: string, files: Record<string, string>, scratch: string): void {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), content);
    }
    this.svn(['import', '--username', author, '-m', message, scratch, `${this.url}/${target}`]);
  }

  checkout(path: string, into: string): string {
    this.svn(['checkout', '--quiet', `${this.url}/${path}`, into]);
    return into;
  }

  commit(workingCopy: string, author: string, message: string): void {
    this.svn(['commit', '--quiet', '--username', author, '-m', message], workingCopy);
  }

  setDate(revision: number, isoDate: string): void {
    this.svn(['propset', '--revprop', '-r', String(revision), 'svn:date', isoDate, this.url]);
  }

  deleteAuthor(revision: number): void {
    this.svn(['propdel', '--revprop', '-r', String(revision), 'svn:author', this.url]);
  }
}
