import { afterAll, describe, expect, it } from 'vitest';
import { inspectPackage } from './package-inspector.ts';
import { sampleApk, sampleIpa } from './testing/sample-packages.ts';
import { createTempDir } from './testing/temp-files.ts';
import { buildZip } from './testing/zip-writer.ts';

const temp = createTempDir();
afterAll(() => temp.cleanup());
const sha = '3f2a9c1d4e5b6a7980716253443f2a9c1d4e5b6a';

/** Issue 19: the commit a build came from, as the package carries it, keyed as written. */
describe('source values in a package', () => {
  it('reads commit-like Info.plist strings of an ipa, not its other strings', async () => {
    const path = temp.write('a.ipa', sampleIpa({ info: { GitCommit: sha, GitBranch: 'main', SvnRevision: 'r1024' } }));
    const inspection = await inspectPackage(path, { declaredName: 'a.ipa' });
    expect(inspection.sourceValues).toEqual({ GitCommit: sha, SvnRevision: 'r1024' });
  });

  it('reads the apk’s <application> meta-data', async () => {
    const path = temp.write('a.apk', sampleApk({ metaData: { 'git.commit': sha.slice(0, 12), channel: 'huawei' } }));
    const inspection = await inspectPackage(path, { declaredName: 'a.apk' });
    expect(inspection.sourceValues).toEqual({ 'git.commit': sha.slice(0, 12) });
    expect((await inspectPackage(temp.write('b.apk', sampleApk()), { declaredName: 'b.apk' })).sourceValues).toBe(
      undefined,
    );
  });

  it('reads version.json beside a web zip’s index.html; a damaged one is ignored', async () => {
    const zip = (json: string) =>
      buildZip([
        { name: 'dist/index.html', data: '<!doctype html><title>x</title>' },
        { name: 'dist/version.json', data: json },
      ]);
    const good = await inspectPackage(temp.write('w.zip', zip(JSON.stringify({ commit: sha, version: '1.2.0' }))), {
      declaredName: 'w.zip',
    });
    expect(good.sourceValues).toEqual({ commit: sha });
    const bad = await inspectPackage(temp.write('x.zip', zip('{ not json')), { declaredName: 'x.zip' });
    expect(bad.kind).toBe('zip');
    expect(bad.sourceValues).toBe(undefined);
  });
});
