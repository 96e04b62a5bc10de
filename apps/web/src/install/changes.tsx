/** @jsxImportSource preact */
import type { ShortChanges } from '@release/contract';
import { installText } from '../features/packages/install.strings.ts';

/**
 * 本版本更新: the commits and items since the build before, by workflow, cut to the newest few (issue 19); to a
 * returning tester, 自上次安装以来的变化: since the build of this platform they last downloaded.
 */
export function BuildChanges({ changes }: { changes: ShortChanges }) {
  return (
    <div class="i-stack i-gap-6" data-testid="install-changes">
      <div class="i-stack i-gap-2">
        <strong data-testid="install-changes-title">
          {changes.sinceInstalled ? installText.changesSinceInstalledTitle : installText.changesTitle}
        </strong>
        <span class="i-muted i-small" data-testid="install-changes-since">
          {changes.sinceInstalled
            ? installText.changesSinceInstalled(changes.since)
            : installText.changesSince(changes.since)}
        </span>
      </div>
      {changes.groups.map((group) => (
        <div class="i-stack i-gap-2" key={group.tabName} data-testid="install-changes-group">
          <span class="i-small">
            <strong>{group.tabName}</strong> <span class="i-muted">{installText.changesCount(group.total)}</span>
          </span>
          <ul class="i-changes">
            {group.entries.map((entry, index) => (
              <li key={index} data-testid="install-change">
                {entry.message}
                <span class="i-muted i-small"> · {entry.author}</span>
              </li>
            ))}
          </ul>
          {group.total > group.entries.length && (
            <span class="i-muted i-small">{installText.changesMore(group.total - group.entries.length)}</span>
          )}
        </div>
      ))}
    </div>
  );
}
