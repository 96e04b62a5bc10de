import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { createCiApp, type CiApp } from './helpers/ci-app.ts';
import { testDialects } from './helpers/dialects.ts';
import { runProcess, type ProcessRun } from './helpers/subprocess.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const doc = path.resolve(import.meta.dirname, '../../../docs/ci-pipelines.md');

/** The fenced blocks of docs/ci-pipelines.md marked `<!-- ci-snippet: name -->`, by name. */
function snippets(): Map<string, { lang: string; body: string }> {
  const found = new Map<string, { lang: string; body: string }>();
  for (const match of fs
    .readFileSync(doc, 'utf8')
    .matchAll(/<!-- ci-snippet: ([\w-]+) -->\n```(\w+)\n([\s\S]*?)\n```/g)) {
    found.set(match[1] ?? '', { lang: match[2] ?? '', body: match[3] ?? '' });
  }
  return found;
}

interface GitlabJob {
  script: string[];
  variables?: Record<string, string>;
}
interface GithubStep {
  uses?: string;
  env?: Record<string, string>;
  run?: string;
}

/**
 * What the docs' snippets meet in a pipeline: the project's CI variables and the runner's own (GitLab's CI_*, GitHub's
 * GITHUB_* and `${{ }}` expressions), a checkout holding the built packages, and `node` and `curl` on the PATH.
 */
describe.each(testDialects())('the CI snippets of docs/ci-pipelines.md, run against a real server on %s', (dialect) => {
  let server: TestServer;
  let tmp: string;
  let ci: CiApp;
  const title = '修复登录 "引号" $(不执行)';

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'release-ci-snippets-'));
    server = await startTestServer(dialect);
    ci = await createCiApp(server);
  });
  afterAll(async () => {
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** A fresh checkout with the packages the snippets name, each of the given version. */
  function checkout(name: string, version: { android?: [string, number]; ios?: [string, string] }): string {
    const dir = path.join(tmp, name);
    const put = (file: string, bytes: Buffer) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), bytes);
    };
    if (version.android) {
      const apk = sampleApk({ versionName: version.android[0], versionCode: version.android[1] });
      put('app.apk', apk);
      put('app/build/outputs/apk/release/app-release.apk', apk);
    }
    if (version.ios) put('build/Shop.ipa', sampleIpa({ version: version.ios[0], build: version.ios[1] }));
    return dir;
  }

  const projectVariables = () => ({ RELEASE_SERVER: server.url, RELEASE_TOKEN: ci.ciToken });
  // `node` first on the PATH is the one running the tests (≥ 20, as the docs ask).
  const basePath = () => `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`;

  function shell(body: string, cwd: string): Promise<ProcessRun> {
    return runProcess('sh', ['-e', '-c', body], { cwd, env: { PATH: basePath(), HOME: cwd, ...projectVariables() } });
  }

  /** As a GitLab runner: the job's variables under the project's, CI_* predefined, the script's lines in order, stopping at the first failure. */
  function gitlab(body: string, cwd: string): Promise<ProcessRun> {
    const jobs = Object.values(parseYaml(body) as Record<string, GitlabJob>);
    expect(jobs).toHaveLength(1);
    const job = jobs[0] as GitlabJob;
    const predefined = { CI_COMMIT_SHA: '3f2a9c1d', CI_COMMIT_REF_NAME: 'release/3.1', CI_COMMIT_TITLE: title };
    return runProcess('sh', ['-e', '-c', job.script.join('\n')], {
      cwd,
      env: { PATH: basePath(), HOME: cwd, ...job.variables, ...predefined, ...projectVariables() },
    });
  }

  /** As a GitHub runner: each `run` step under bash -e -o pipefail with its env, `${{ }}` taken from the repository's variables and secrets. */
  async function github(body: string, cwd: string): Promise<ProcessRun> {
    const expressions: Record<string, string> = {
      'vars.RELEASE_SERVER': server.url,
      'secrets.RELEASE_TOKEN': ci.ciToken,
      'github.event.head_commit.message': title,
    };
    const resolve = (value: string) =>
      value.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_all, name: string) => {
        const found = expressions[name];
        if (found === undefined) throw new Error(`the snippet uses \${{ ${name} }}, which the test does not know`);
        return found;
      });
    const runnerTemp = fs.mkdtempSync(path.join(tmp, 'runner-temp-'));
    let last: ProcessRun = { code: 0, stdout: '', stderr: '' };
    for (const step of parseYaml(body) as GithubStep[]) {
      if (step.run === undefined) continue;
      expect(step.run).not.toContain('${{');
      const env = Object.fromEntries(
        Object.entries(step.env ?? {}).map(([key, value]) => [key, resolve(String(value))]),
      );
      last = await runProcess('bash', ['-e', '-o', 'pipefail', '-c', step.run], {
        cwd,
        env: {
          PATH: basePath(),
          HOME: cwd,
          GITHUB_SHA: '3f2a9c1d',
          GITHUB_REF_NAME: 'main',
          RUNNER_TEMP: runnerTemp,
          ...env,
        },
      });
      if (last.code !== 0) return last;
    }
    return last;
  }

  it('marks exactly the snippets this test runs', () => {
    expect([...snippets().keys()].sort()).toEqual([
      'download',
      'github-cli',
      'github-curl',
      'gitlab-cli',
      'gitlab-curl',
      'pipe',
    ]);
  });

  it.each([
    ['pipe', { android: ['1.0.1', 101] }, { appVersion: '1.0.1' }],
    ['download', { android: ['1.0.2', 102] }, { appVersion: '1.0.2', description: '修复登录' }],
    ['gitlab-cli', { android: ['1.0.3', 103] }, { appVersion: '1.0.3', description: title }],
    [
      'gitlab-curl',
      { android: ['1.0.4', 104] },
      {
        appVersion: '1.0.4',
        description: title,
        metadata: expect.objectContaining({ source: { commit: '3f2a9c1d', branch: 'release/3.1' } }),
      },
    ],
    ['github-cli', { ios: ['2.0.1', '201'] }, { appVersion: '2.0.1', build: '201', description: title }],
    [
      'github-curl',
      { ios: ['2.0.2', '202'] },
      {
        appVersion: '2.0.2',
        description: title,
        metadata: expect.objectContaining({ source: { commit: '3f2a9c1d', branch: 'main' } }),
      },
    ],
  ] as const)('%s publishes a version', async (name, versions, expected) => {
    const snippet = snippets().get(name);
    if (!snippet) throw new Error(`no snippet ${name} in ${doc}`);
    const cwd = checkout(name, versions as { android?: [string, number]; ios?: [string, string] });
    const before = await ci.versionCount();
    const run = name.startsWith('gitlab')
      ? await gitlab(snippet.body, cwd)
      : name.startsWith('github')
        ? await github(snippet.body, cwd)
        : await shell(snippet.body, cwd);
    expect([run.code, run.stderr]).toEqual([0, expect.any(String)]);
    expect(await ci.versionCount()).toBe(before + 1);
    expect(await ci.newest()).toMatchObject({ ...expected, uploadBy: 'ci-bot' });
    if (fs.existsSync(path.join(cwd, 'release.json')))
      expect(JSON.parse(fs.readFileSync(path.join(cwd, 'release.json'), 'utf8'))).toMatchObject({
        ok: true,
        skipped: false,
      });
  });

  it('a failed download stops the two-command form with an error, where the pipe would exit 0 having published nothing', async () => {
    const cwd = checkout('server-wrong', { android: ['1.0.9', 109] });
    const download = snippets().get('download')?.body ?? '';
    const pipe = snippets().get('pipe')?.body ?? '';
    const before = await ci.versionCount();
    const wrong = { PATH: basePath(), HOME: cwd, RELEASE_SERVER: `${server.url}/nowhere`, RELEASE_TOKEN: ci.ciToken };
    expect((await runProcess('sh', ['-e', '-c', download], { cwd, env: wrong })).code).toBe(22);
    expect((await runProcess('sh', ['-e', '-c', pipe], { cwd, env: wrong })).code).toBe(0);
    expect(await ci.versionCount()).toBe(before);
  });
});
