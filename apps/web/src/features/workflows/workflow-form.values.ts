import {
  branchNames,
  manageTypes,
  packageTypes,
  repoTypes,
  toStoredBranches,
  type AppType,
  type WorkflowRow,
} from '@release/contract';
import type { WorkflowInput } from '../../api/workflows.api.ts';

export type ContentType = WorkflowRow['contentType'];

export interface WorkflowFormValues {
  tabName: string;
  contentType: ContentType;
  /** git for repositories; the workflow type (JPS, JPS_GAME, wiki, other) of custom workflows. */
  manageType: string | null;
  repoType: string | null;
  repoPath: string;
  /** Comma-separated short branch names. */
  defaultBranch: string;
  committers: string[];
  robotUrl: string;
  /** The Lark bot's signing secret: write-only, blank keeps the stored one. */
  robotSecret: string;
  /** 清除已保存的密钥 was confirmed: the save removes the stored secret (a new one typed wins). */
  clearRobotSecret: boolean;
  autoPush: boolean;
  packageType: string | null;
  /** The log source of a custom workflow (JPS enterprise, knowledge space); stored as enterpriseName. */
  enterpriseName: string;
}

export function createWorkflowValues(): WorkflowFormValues {
  return {
    tabName: '',
    contentType: 'default',
    manageType: 'git',
    repoType: 'git',
    repoPath: '',
    defaultBranch: '',
    committers: [],
    robotUrl: '',
    robotSecret: '',
    clearRobotSecret: false,
    autoPush: false,
    packageType: null,
    enterpriseName: '',
  };
}

export function workflowValuesOf(row: WorkflowRow): WorkflowFormValues {
  return {
    tabName: row.tabName,
    contentType: row.contentType,
    manageType: row.manageType,
    repoType: row.repoType,
    repoPath: row.repoPath ?? '',
    defaultBranch: branchNames(row.defaultBranch).join(','),
    committers: row.committers,
    robotUrl: row.robotUrl ?? '',
    robotSecret: '',
    clearRobotSecret: false,
    autoPush: row.autoPush,
    packageType: row.packageType,
    enterpriseName: row.enterpriseName ?? '',
  };
}

/** SPEC §4: a new category resets the manage type (custom → JPS, repository → git) and clears the repo path. */
export function valuesForCategory(contentType: ContentType): Pick<WorkflowFormValues, 'manageType' | 'repoPath'> {
  const manageType = contentType === 'custom' ? 'JPS' : contentType === 'default' ? 'git' : null;
  return { manageType, repoPath: '' };
}

/** The repo address is asked unless the repository type is 其他 (SPEC §5). */
export function needsRepoPath(values: Pick<WorkflowFormValues, 'contentType' | 'repoType'>): boolean {
  return values.contentType === 'default' && values.repoType !== 'other';
}

/** A custom workflow names its log source unless its type is 其他 (SPEC §5). */
export function needsSource(values: Pick<WorkflowFormValues, 'contentType' | 'manageType'>): boolean {
  return values.contentType === 'custom' && values.manageType !== 'other';
}

function blankToNull(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

function oneOf<T extends string>(list: readonly T[], value: string | null): T | null {
  return list.find((item) => item === value) ?? null;
}

/** The body of POST /api/workflow(/update): only the fields of the chosen category. */
export function toWorkflowBody(values: WorkflowFormValues, appId: number): WorkflowInput {
  const repository = values.contentType === 'default';
  return {
    appId,
    tabName: values.tabName.trim(),
    contentType: values.contentType,
    manageType: oneOf(manageTypes, values.contentType === 'package' ? null : values.manageType),
    repoType: repository ? oneOf(repoTypes, values.repoType) : null,
    repoPath: repository && needsRepoPath(values) ? blankToNull(values.repoPath) : null,
    defaultBranch: repository ? toStoredBranches(values.defaultBranch) : null,
    committers: [...new Set(values.committers.map((name) => name.trim()).filter(Boolean))],
    robotUrl: blankToNull(values.robotUrl),
    // Write-only: a new secret replaces the stored one, '' removes it, nothing keeps it.
    ...(values.robotSecret.trim()
      ? { robotSecret: values.robotSecret.trim() }
      : values.clearRobotSecret
        ? { robotSecret: '' }
        : {}),
    autoPush: values.autoPush,
    packageType: values.contentType === 'package' ? oneOf(packageTypes, values.packageType) : null,
    enterpriseName: needsSource(values) ? blankToNull(values.enterpriseName) : null,
  };
}

/** SPEC §5: unity apps choose from every package type, other apps from the first two plus web zips. */
export function packageTypeChoices(appType: AppType): Array<(typeof packageTypes)[number]> {
  return appType === 'unity' ? [...packageTypes] : [...packageTypes.slice(0, 2), 'webZip' as const];
}
