/**
 * The tag names CI commonly gives the commit a build came from, most specific first: with the build
 * (`v1.4.2+302`, `v1.4.2-302`, `v1.4.2_302`, `1.4.2+302`, …), then the version alone (`v1.4.2`, `1.4.2`),
 * then the build alone (`build-302`, `build/302`). Used only when the upload named no commit and no branch.
 */
export function versionTagNames(version: string | null, build: string | null): string[] {
  const v = version?.trim() ?? '';
  const b = build?.trim() ?? '';
  const names: string[] = [];
  if (v) {
    if (b && b !== v) for (const join of ['+', '-', '_']) names.push(`v${v}${join}${b}`, `${v}${join}${b}`);
    names.push(`v${v}`, `${v}`);
  }
  if (b) names.push(`build-${b}`, `build/${b}`);
  return [...new Set(names)];
}
