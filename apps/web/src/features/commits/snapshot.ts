import { boundGroupLabels, boundVersionGroups, type BoundVersionGroup, type CommitLogItem } from '@release/contract';

/** SPEC §5 snapshot upload: only these image and video types. */
export const SNAPSHOT_MEDIA_TYPES = ['image/jpeg', 'image/png', 'video/mp4', 'video/webm', 'video/quicktime'] as const;

export function isSnapshotMedia(mimeType: string): boolean {
  return SNAPSHOT_MEDIA_TYPES.some((type) => type === mimeType);
}

/** The version pickers' groups (IPA, APK, WEB, HAP), from the kind table. */
export const versionKinds = boundVersionGroups.map((key) => ({ key, label: boundGroupLabels[key] }));
export type VersionKind = BoundVersionGroup;

/** No bound builds in any group. */
export const noBoundVersions: CommitLogItem['bindVersions'] = { ipa: [], apk: [], zip: [], hap: [] };

/** Per kind: whether its checkbox is ticked and which versions are picked. */
export type VersionPicks = Record<VersionKind, { enabled: boolean; ids: number[] }>;

export function picksOf(bound: CommitLogItem['bindVersions']): VersionPicks {
  const pick = (kind: VersionKind) => ({
    enabled: bound[kind].length > 0,
    ids: bound[kind].map((v) => v.appVersionId),
  });
  return { ipa: pick('ipa'), apk: pick('apk'), zip: pick('zip'), hap: pick('hap') };
}

/** The ids to bind: only the ticked kinds count. */
export function pickedVersionIds(picks: VersionPicks): number[] {
  return [...new Set(versionKinds.flatMap(({ key }) => (picks[key].enabled ? picks[key].ids : [])))];
}

/**
 * Files picked together upload side by side and finish in any order: each takes a ticket when its upload starts, and
 * `settle` hands back the urls that may now be added — in ticket (picking) order, a failed upload (null) skipped.
 */
export function pickOrder(): { take: () => number; settle: (ticket: number, url: string | null) => string[] } {
  let issued = 0;
  let released = 0;
  const done = new Map<number, string | null>();
  return {
    take: () => issued++,
    settle(ticket, url) {
      done.set(ticket, url);
      const ready: string[] = [];
      while (done.has(released)) {
        const next = done.get(released);
        done.delete(released);
        released += 1;
        if (next) ready.push(next);
      }
      return ready;
    },
  };
}
