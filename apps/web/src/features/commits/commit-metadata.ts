import { commitsText } from './commits.strings.ts';

/** SPEC §3 metadata of an update item, as POST /api/commit_log/metadata_list answers it (a JSON string). */
export interface Changelog {
  id: string;
  elementType: string;
  gameplay: string;
  categoryName: string;
  count: number;
}

export interface UploadApplication {
  applicationId: string;
  name: string;
  icon: string | null;
  changelogs: Changelog[];
}

export interface WikiEvent {
  event: string;
  spaceName: string;
  objTitle: string;
  url: string | null;
  changeVisible: boolean;
  beforeContent: string;
  afterContent: string;
}

export interface ChangedFiles {
  added: string[];
  modified: string[];
  removed: string[];
}

export type CommitMetadata =
  | { kind: 'upload'; applications: UploadApplication[] }
  | { kind: 'wiki'; event: WikiEvent }
  | { kind: 'files'; files: ChangedFiles };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function changelogOf(value: unknown): Changelog | null {
  if (!isObject(value)) return null;
  const count = Number(value.count);
  return {
    id: str(value.id),
    elementType: str(value.elementType),
    gameplay: str(value.gameplay),
    categoryName: str(value.categoryName),
    count: Number.isFinite(count) ? count : 0,
  };
}

function applicationOf(value: unknown): UploadApplication | null {
  if (!isObject(value)) return null;
  const changelogs = Array.isArray(value.changelogs)
    ? value.changelogs.map(changelogOf).filter((c): c is Changelog => c !== null)
    : [];
  return { applicationId: str(value.applicationId), name: str(value.name), icon: str(value.icon) || null, changelogs };
}

/** Reads one metadata string; anything unrecognised (or not JSON) is null and simply not shown. */
export function parseCommitMetadata(text: string | undefined): CommitMetadata | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const applications = isObject(value) ? value.applications : value;
  if (Array.isArray(applications)) {
    const list = applications.map(applicationOf).filter((a): a is UploadApplication => a !== null);
    return list.length ? { kind: 'upload', applications: list } : null;
  }
  if (!isObject(value)) return null;
  if (typeof value.event === 'string') {
    return {
      kind: 'wiki',
      event: {
        event: value.event,
        spaceName: str(value.spaceName),
        objTitle: str(value.objTitle),
        url: str(value.url) || null,
        changeVisible: value.changeVisible === true || value.changeVisible === 1 || value.changeVisible === 'true',
        beforeContent: str(value.beforeContent),
        afterContent: str(value.afterContent),
      },
    };
  }
  if (isObject(value.files)) {
    const files = {
      added: strings(value.files.added),
      modified: strings(value.files.modified),
      removed: strings(value.files.removed),
    };
    return files.added.length + files.modified.length + files.removed.length > 0 ? { kind: 'files', files } : null;
  }
  return null;
}

const labels = commitsText.metadata;

/**
 * A changelog as its tag reads it: element type · gameplay · category × count (SPEC §3 labels; any other gameplay,
 * or none, is 未知玩法). A part the item does not carry (no category, no element type) is left out with its separator.
 */
export function changelogText(log: Changelog): string {
  const element =
    log.elementType in labels.elementTypes
      ? labels.elementTypes[log.elementType as keyof typeof labels.elementTypes]
      : log.elementType;
  const gameplay =
    log.gameplay in labels.gameplay
      ? labels.gameplay[log.gameplay as keyof typeof labels.gameplay]
      : labels.gameplay.unknown;
  return `${[element, gameplay, log.categoryName].filter((part) => part.trim() !== '').join(' · ')} × ${log.count}`;
}
