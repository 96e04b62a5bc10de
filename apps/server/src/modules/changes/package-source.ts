/**
 * The keys under which a package names the commit it was built from (issue 19), tried in this order: an ipa's
 * Info.plist string, an apk's `<application>` meta-data, a top-level field of a web zip's `version.json` (the
 * inspectors keep the commit-like values of each by key: `sourceValues`). docs/ci-pipelines.md lists them.
 */
export const PACKAGE_SOURCE_KEYS = [
  'GitCommit',
  'GIT_COMMIT',
  'gitCommit',
  'git_commit',
  'git.commit',
  'commit',
] as const;

/** The commit (or svn revision) a package carries: under the app's own key when it names one, else a default key. */
export function packageSourceCommit(values: Record<string, string> | undefined, appKey: string | null): string | null {
  if (!values) return null;
  for (const key of appKey ? [appKey] : PACKAGE_SOURCE_KEYS) if (Object.hasOwn(values, key)) return values[key] ?? null;
  return null;
}
