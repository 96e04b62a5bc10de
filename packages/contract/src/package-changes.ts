import { z } from 'zod';
import { intFromQuery } from './common.ts';
import { changedVersion } from './version-changes.ts';

/**
 * How the package itself changed between two builds (issue 19): the facts stored from inspection with each version
 * (`app_versions.metadata.facts`, written by @release/inspect package-facts.ts), their diff, and the thresholds an
 * app's editors set for marking a build.
 */
export const PACKAGE_CHANGES_PATH = '/api/version_package_changes';
export const PACKAGE_THRESHOLDS_PATH = '/api/app_package_thresholds';

const name = z.string().max(200);
const names = z.array(name).max(200);

/** As stored; decoded when read, so a damaged or older row reads as 无数据, never a crash. */
export const packageFacts = z.object({
  version: z.literal(1),
  size: z.object({
    total: z.number().nonnegative(),
    installed: z.number().nonnegative(),
    parts: z.array(z.object({ key: name, size: z.number(), installedSize: z.number(), files: z.number() })).max(40),
  }),
  permissions: names,
  entitlements: names,
  minOs: name.nullable(),
  targetSdk: name.nullable(),
  buildSdk: name.nullable(),
  signing: z
    .object({
      scheme: name.nullable(),
      certificate: name.nullable(),
      identity: name.nullable(),
      teamId: name.nullable(),
      profileType: name.nullable(),
      profileName: name.nullable(),
    })
    .nullable(),
  frameworks: names,
  extensions: names,
  dylibs: names,
});
export type PackageFacts = z.infer<typeof packageFacts>;

/** The Chinese name of a part key (`native:arm64-v8a` → 原生库 arm64-v8a). */
export function packagePartLabel(key: string): string {
  const labels: Record<string, string> = {
    executable: '可执行文件',
    frameworks: '框架',
    extensions: '扩展',
    assets: '资源包',
    resources: '资源文件',
    code: '代码（dex）',
    signature: '签名',
    other: '其他',
  };
  if (key.startsWith('native:')) return `原生库 ${key.slice('native:'.length)}`;
  if (key.startsWith('dir:')) return `${key.slice('dir:'.length)}/`;
  return labels[key] ?? key;
}

/**
 * Android permissions of protection level "dangerous" (the user grants them at run time). On iOS every
 * `NS*UsageDescription` key asks the user (camera, location, contacts …): each counts as dangerous.
 */
export const DANGEROUS_ANDROID_PERMISSIONS: ReadonlySet<string> = new Set(
  [
    'ACCEPT_HANDOVER',
    'ACCESS_BACKGROUND_LOCATION',
    'ACCESS_COARSE_LOCATION',
    'ACCESS_FINE_LOCATION',
    'ACCESS_MEDIA_LOCATION',
    'ACTIVITY_RECOGNITION',
    'ADD_VOICEMAIL',
    'ANSWER_PHONE_CALLS',
    'BLUETOOTH_ADVERTISE',
    'BLUETOOTH_CONNECT',
    'BLUETOOTH_SCAN',
    'BODY_SENSORS',
    'BODY_SENSORS_BACKGROUND',
    'CALL_PHONE',
    'CAMERA',
    'GET_ACCOUNTS',
    'NEARBY_WIFI_DEVICES',
    'POST_NOTIFICATIONS',
    'PROCESS_OUTGOING_CALLS',
    'READ_CALENDAR',
    'READ_CALL_LOG',
    'READ_CONTACTS',
    'READ_EXTERNAL_STORAGE',
    'READ_MEDIA_AUDIO',
    'READ_MEDIA_IMAGES',
    'READ_MEDIA_VIDEO',
    'READ_MEDIA_VISUAL_USER_SELECTED',
    'READ_PHONE_NUMBERS',
    'READ_PHONE_STATE',
    'READ_SMS',
    'RECEIVE_MMS',
    'RECEIVE_SMS',
    'RECEIVE_WAP_PUSH',
    'RECORD_AUDIO',
    'SEND_SMS',
    'USE_SIP',
    'UWB_RANGING',
    'WRITE_CALENDAR',
    'WRITE_CALL_LOG',
    'WRITE_CONTACTS',
    'WRITE_EXTERNAL_STORAGE',
  ].map((p) => `android.permission.${p}`),
);

/**
 * HarmonyOS permissions granted by the user at run time (`user_grant`): location, camera, microphone, calendar,
 * contacts, calls and messages, health and motion, media and files, Bluetooth, cross-device data, tracking.
 */
export const USER_GRANT_HARMONY_PERMISSIONS: ReadonlySet<string> = new Set(
  [
    'ACCESS_BLUETOOTH',
    'ACTIVITY_MOTION',
    'ANSWER_CALL',
    'APP_TRACKING_CONSENT',
    'APPROXIMATELY_LOCATION',
    'CAMERA',
    'DISTRIBUTED_DATASYNC',
    'LOCATION',
    'LOCATION_IN_BACKGROUND',
    'MANAGE_VOICEMAIL',
    'MEDIA_LOCATION',
    'MICROPHONE',
    'READ_AUDIO',
    'READ_CALENDAR',
    'READ_CALL_LOG',
    'READ_CELL_MESSAGES',
    'READ_CONTACTS',
    'READ_DOCUMENT',
    'READ_HEALTH_DATA',
    'READ_IMAGEVIDEO',
    'READ_MEDIA',
    'READ_MESSAGES',
    'READ_PASTEBOARD',
    'READ_WHOLE_CALENDAR',
    'RECEIVE_MMS',
    'RECEIVE_SMS',
    'RECEIVE_WAP_MESSAGES',
    'SEND_MESSAGES',
    'WRITE_AUDIO',
    'WRITE_CALENDAR',
    'WRITE_CALL_LOG',
    'WRITE_CONTACTS',
    'WRITE_DOCUMENT',
    'WRITE_IMAGEVIDEO',
    'WRITE_MEDIA',
    'WRITE_WHOLE_CALENDAR',
  ].map((p) => `ohos.permission.${p}`),
);

export function isDangerousPermission(permission: string): boolean {
  return (
    DANGEROUS_ANDROID_PERMISSIONS.has(permission) ||
    USER_GRANT_HARMONY_PERMISSIONS.has(permission) ||
    /^NS[A-Za-z]+UsageDescription$/.test(permission)
  );
}

const listChange = z.object({ added: z.array(z.string()), removed: z.array(z.string()) });
const valueChange = z.object({ from: z.string().nullable(), to: z.string().nullable() });

export const packageDiff = z.object({
  size: z.object({
    from: z.number(),
    to: z.number(),
    delta: z.number(),
    /** Of `from`; null when the older build had no bytes. */
    percent: z.number().nullable(),
    /** Parts that changed, the biggest movers (by absolute delta) first. */
    parts: z.array(
      z.object({ key: z.string(), label: z.string(), from: z.number(), to: z.number(), delta: z.number() }),
    ),
  }),
  permissions: listChange.extend({ dangerousAdded: z.array(z.string()) }),
  entitlements: listChange,
  /** null when unchanged. */
  minOs: valueChange.extend({ raised: z.boolean() }).nullable(),
  targetSdk: valueChange.nullable(),
  buildSdk: valueChange.nullable(),
  /** The signing certificate (apk) or team (Apple) changed: testers cannot install it over the older build. */
  certificateChanged: z.boolean(),
  signing: z.object({ from: packageFacts.shape.signing, to: packageFacts.shape.signing }),
  frameworks: listChange,
  extensions: listChange,
  dylibs: listChange,
});
export type PackageDiff = z.infer<typeof packageDiff>;

/** Dotted numbers compared as numbers: `12.0` < `15.1`, `API 21` < `API 24`; null when either has none. */
export function compareOsVersions(a: string, b: string): number | null {
  const parts = (s: string) => (s.match(/\d+/g) ?? []).map(Number);
  const [x, y] = [parts(a), parts(b)];
  if (x.length === 0 || y.length === 0) return null;
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

function listDiff(from: string[], to: string[]) {
  const before = new Set(from);
  const after = new Set(to);
  return { added: to.filter((x) => !before.has(x)), removed: from.filter((x) => !after.has(x)) };
}

function valueDiff(from: string | null, to: string | null) {
  return from === to ? null : { from, to };
}

/** What changed from `older` to `newer`: read from stored facts only, never from the packages. */
export function diffPackageFacts(older: PackageFacts, newer: PackageFacts): PackageDiff {
  const sizes = (facts: PackageFacts) => new Map(facts.size.parts.map((p) => [p.key, p.size]));
  const [a, b] = [sizes(older), sizes(newer)];
  const parts = [...new Set([...a.keys(), ...b.keys()])]
    .map((key) => {
      const from = a.get(key) ?? 0;
      const to = b.get(key) ?? 0;
      return { key, label: packagePartLabel(key), from, to, delta: to - from };
    })
    .filter((p) => p.delta !== 0)
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.key.localeCompare(y.key));
  const permissions = listDiff(older.permissions, newer.permissions);
  const minOs = valueDiff(older.minOs, newer.minOs);
  const [certA, certB] = [older.signing, newer.signing];
  const certificateChanged = Boolean(
    certA &&
      certB &&
      (certA.teamId || certB.teamId
        ? certA.teamId !== certB.teamId
        : certA.certificate !== null && certB.certificate !== null && certA.certificate !== certB.certificate),
  );
  const delta = newer.size.total - older.size.total;
  return {
    size: {
      from: older.size.total,
      to: newer.size.total,
      delta,
      percent: older.size.total > 0 ? (delta / older.size.total) * 100 : null,
      parts,
    },
    permissions: { ...permissions, dangerousAdded: permissions.added.filter(isDangerousPermission) },
    entitlements: listDiff(older.entitlements, newer.entitlements),
    minOs: minOs
      ? {
          ...minOs,
          raised: minOs.from !== null && minOs.to !== null && (compareOsVersions(minOs.to, minOs.from) ?? 0) > 0,
        }
      : null,
    targetSdk: valueDiff(older.targetSdk, newer.targetSdk),
    buildSdk: valueDiff(older.buildSdk, newer.buildSdk),
    certificateChanged,
    signing: { from: certA, to: certB },
    frameworks: listDiff(older.frameworks, newer.frameworks),
    extensions: listDiff(older.extensions, newer.extensions),
    dylibs: listDiff(older.dylibs, newer.dylibs),
  };
}

export const THRESHOLD_LIMITS = { sizePercent: { min: 1, max: 1000 }, sizeMb: { min: 1, max: 100_000 } } as const;

/** An app's thresholds (set by its editors); crossing one marks the build and its push says so first. */
export const packageThresholds = z.object({
  /** Size grew by more than this percent (null: not watched). */
  sizePercent: z.number().int().min(THRESHOLD_LIMITS.sizePercent.min).max(THRESHOLD_LIMITS.sizePercent.max).nullable(),
  /** Size grew by more than this many MB (null: not watched). */
  sizeMb: z.number().int().min(THRESHOLD_LIMITS.sizeMb.min).max(THRESHOLD_LIMITS.sizeMb.max).nullable(),
  dangerousPermission: z.boolean(),
  certificate: z.boolean(),
  minOsRaised: z.boolean(),
});
export type PackageThresholds = z.infer<typeof packageThresholds>;

/** Until an editor sets them: nothing watched. */
export const DEFAULT_PACKAGE_THRESHOLDS: PackageThresholds = {
  sizePercent: null,
  sizeMb: null,
  dangerousPermission: false,
  certificate: false,
  minOsRaised: false,
};

export const appPackageThresholdsQuery = z.object({ appId: intFromQuery.min(1) });
export const savePackageThresholdsBody = packageThresholds.extend({ appId: z.number().int().min(1) });

const MB = 1024 * 1024;

/** `+12.3 MB`, `-800 KB`, `+0 B`: a size delta as the drawer and the pushes write it. */
export function formatSizeDelta(bytes: number): string {
  const sign = bytes > 0 ? '+' : bytes < 0 ? '-' : '±';
  return `${sign}${formatBytes(Math.abs(bytes))}`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** The thresholds `diff` crosses, each as one Chinese phrase (the row's tag and the push's first line). */
export function crossedThresholds(diff: PackageDiff, t: PackageThresholds): string[] {
  const out: string[] = [];
  const { delta, percent } = diff.size;
  const overPercent = t.sizePercent !== null && percent !== null && percent > t.sizePercent;
  const overMb = t.sizeMb !== null && delta > t.sizeMb * MB;
  if (delta > 0 && (overPercent || overMb))
    out.push(`体积增加 ${formatSizeDelta(delta).slice(1)}${percent !== null ? `（+${percent.toFixed(1)}%）` : ''}`);
  if (t.dangerousPermission && diff.permissions.dangerousAdded.length > 0)
    out.push(`新增敏感权限 ${diff.permissions.dangerousAdded.map(shortPermission).join('、')}`);
  if (t.certificate && diff.certificateChanged) out.push('签名证书已更换，测试人员无法覆盖安装');
  if (t.minOsRaised && diff.minOs?.raised) out.push(`最低系统版本提高到 ${diff.minOs.to}`);
  return out;
}

/** `android.permission.CAMERA` → CAMERA; other names as they are. */
export function shortPermission(permission: string): string {
  return permission.startsWith('android.permission.') ? permission.slice('android.permission.'.length) : permission;
}

export const packageChangesQuery = z.object({
  versionId: intFromQuery.min(1),
  baseVersionId: intFromQuery.min(1).optional(),
});

export const packageChanges = z.object({
  version: changedVersion,
  /** null for the first build of its platform. */
  base: changedVersion.nullable(),
  /** false: the build was published before package facts were stored (无数据). */
  versionHasFacts: z.boolean(),
  baseHasFacts: z.boolean(),
  facts: packageFacts.nullable(),
  /** null unless both builds have facts. */
  diff: packageDiff.nullable(),
  /** The app's thresholds this diff crosses now. */
  crossed: z.array(z.string()),
  /** What was marked on the build when it was published (its tag). */
  alerts: z.array(z.string()),
});
export type PackageChanges = z.infer<typeof packageChanges>;
