import { describe, expect, it } from 'vitest';
import { SvnError } from './svn-command.ts';
import { svnEntryToCommit, svnLocationOf } from './svn-log.ts';
import { parseSvnDate, parseSvnInfoXml, parseSvnLogXml } from './svn-xml.ts';

// The shape of the contract's sample: attribute order varies, author may be missing, text is entity-escaped.
const LOG_XML = `<?xml version="1.0" encoding="UTF-8"?>
<log>
<logentry
   revision="3">
<author>alice</author>
<date>2026-11-22T01:53:14.201730Z</date>
<paths>
<path
   action="M"
   prop-mods="false"
   text-mods="true"
   kind="file">/trunk/README.txt</path>
<path
   prop-mods="false"
   text-mods="false"
   kind="file"
   action="D">/trunk/src/a.c</path>
<path
   prop-mods="false"
   text-mods="false"
   kind="file"
   copyfrom-path="/trunk/src/a.c"
   copyfrom-rev="2"
   action="A">/trunk/src/b.c</path>
</paths>
<msg>Rename a.c; edit readme &lt;b&gt; &amp; co
second line
</msg>
</logentry>
<logentry
   revision="4">
<date>2026-11-22T01:54:00.000000Z</date>
<msg></msg>
</logentry>
</log>
`;

describe('parseSvnLogXml', () => {
  it('reads entries, paths by attribute name, escaped messages and a missing author', () => {
    const [first, second] = parseSvnLogXml(LOG_XML);
    expect(first).toEqual({
      revision: 3,
      author: 'alice',
      date: Date.UTC(2026, 10, 22, 1, 53, 14, 201),
      message: 'Rename a.c; edit readme <b> & co\nsecond line\n',
      paths: [
        { path: '/trunk/README.txt', action: 'M', kind: 'file', copyFromPath: null, copyFromRevision: null },
        { path: '/trunk/src/a.c', action: 'D', kind: 'file', copyFromPath: null, copyFromRevision: null },
        { path: '/trunk/src/b.c', action: 'A', kind: 'file', copyFromPath: '/trunk/src/a.c', copyFromRevision: 2 },
      ],
    });
    expect(second).toEqual({ revision: 4, author: null, date: Date.UTC(2026, 10, 22, 1, 54), message: '', paths: [] });
  });

  it('normalises an entry into a SourceCommit', () => {
    const [entry] = parseSvnLogXml(LOG_XML);
    if (!entry) throw new Error('no entry');
    expect(svnEntryToCommit(entry)).toEqual({
      commitId: 'r3',
      branch: 'trunk',
      authorName: 'alice',
      authorEmail: null,
      commitTime: Date.UTC(2026, 10, 22, 1, 53, 14, 201),
      message: 'Rename a.c; edit readme <b> & co\nsecond line',
      tags: [],
      tagSummary: [],
      url: null,
      files: { added: ['/trunk/src/b.c'], modified: ['/trunk/README.txt'], removed: ['/trunk/src/a.c'] },
    });
  });

  it('rejects the truncated output svn prints before failing, and other documents', () => {
    const truncated = '<?xml version="1.0" encoding="UTF-8"?>\n<log>\n';
    for (const xml of [truncated, '<info></info>', 'not xml', '<log><logentry revision="x"><msg/></logentry></log>']) {
      expect(() => parseSvnLogXml(xml)).toThrow(SvnError);
    }
  });
});

describe('parseSvnInfoXml', () => {
  it('reads youngest and last-changed revisions', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<info>
<entry
   kind="dir"
   path="trunk"
   revision="12">
<url>svn://svn.corp.test/app/trunk</url>
<relative-url>^/trunk</relative-url>
<repository>
<root>svn://svn.corp.test/app</root>
<uuid>0f3c6a9e-1b2d-4c5e-8f70-112233445566</uuid>
</repository>
<commit
   revision="9">
<author>alice</author>
<date>2026-11-22T01:53:14.201730Z</date>
</commit>
</entry>
</info>`;
    expect(parseSvnInfoXml(xml)).toEqual({
      revision: 12,
      lastChangedRevision: 9,
      url: 'svn://svn.corp.test/app/trunk',
      repositoryRoot: 'svn://svn.corp.test/app',
      uuid: '0f3c6a9e-1b2d-4c5e-8f70-112233445566',
    });
  });
});

describe('svn helpers', () => {
  it.each([
    ['/trunk', { branch: 'trunk', tag: null }],
    ['/trunk/src/a.c', { branch: 'trunk', tag: null }],
    ['/branches/release-2.4/src/a.c', { branch: 'release-2.4', tag: null }],
    ['/mobile/ios/branches/hotfix', { branch: 'hotfix', tag: null }],
    ['/tags/v1.0', { branch: null, tag: 'v1.0' }],
    ['/tags/v1.0/README', { branch: null, tag: 'v1.0' }],
    ['/branches', { branch: null, tag: null }],
    ['/docs/readme.md', { branch: null, tag: null }],
  ])('locates %s', (path, location) => {
    expect(svnLocationOf(path)).toEqual(location);
  });

  it('parses svn dates with microseconds and refuses other text', () => {
    expect(parseSvnDate('2024-01-02T03:04:05.678901Z')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 678));
    expect(parseSvnDate('2024-01-02T03:04:05Z')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5));
    expect(parseSvnDate('yesterday')).toBeNull();
  });
});
