import type { FormRule } from 'antd';
import {
  bundleIdPlatforms,
  randomAppPath,
  randomInstallPassword,
  UNCATEGORISED_ID,
  emptyBundleIds,
  type AppBundleIds,
  type AppDetail,
  type AppPermit,
  type AppType,
  type SaveAppBody,
} from '@release/contract';

/** The fields of the 添加应用 / 应用设置 form (SPEC §2 App settings). */
export interface AppFormValues {
  appIcon: string | null;
  appName: string;
  appType: AppType;
  /** UNCATEGORISED_ID (未分类) stands for null in the select. */
  categoryId: number;
  password: string;
  path: string;
  description: string;
  /** The ids packages must carry, per platform. */
  bundleIds: AppBundleIds;
  editUserIds: number[];
  viewUserIds: number[];
  devWeComUrl: string;
  prodWeComUrl: string;
  /** The key the app's packages carry their source commit under ('' : the default keys). */
  sourceCommitKey: string;
}

/** SPEC §3 add-app defaults: 4 random letters for the path, 6 random digits for the password, unity. */
export function newAppValues(): AppFormValues {
  return {
    appIcon: null,
    appName: '',
    appType: 'unity',
    categoryId: UNCATEGORISED_ID,
    password: randomInstallPassword(),
    path: randomAppPath(),
    description: '',
    bundleIds: emptyBundleIds(),
    editUserIds: [],
    viewUserIds: [],
    devWeComUrl: '',
    prodWeComUrl: '',
    sourceCommitKey: '',
  };
}

function userIdsWith(app: AppDetail, permit: AppPermit): number[] {
  return app.distributeUsers.filter((user) => user.permit === permit).map((user) => user.userId);
}

export function detailValues(app: AppDetail): AppFormValues {
  return {
    appIcon: app.appIcon,
    appName: app.appName,
    appType: app.appType,
    categoryId: app.categoryId ?? UNCATEGORISED_ID,
    password: app.password,
    path: app.path,
    description: app.description,
    bundleIds: app.bundleIds,
    editUserIds: userIdsWith(app, 'edit'),
    viewUserIds: userIdsWith(app, 'view'),
    devWeComUrl: app.devWeComUrl ?? '',
    prodWeComUrl: app.prodWeComUrl ?? '',
    sourceCommitKey: app.sourceCommitKey ?? '',
  };
}

/** POST /api/app body: a new app (app null) gets a random publicPath; an update keeps what the form does not show. */
export function toSaveBody(values: AppFormValues, app: AppDetail | null): SaveAppBody {
  const editUserIds = values.editUserIds ?? [];
  // A user is either an editor or a viewer (SPEC §6); edit wins if both were ever set.
  const viewUserIds = (values.viewUserIds ?? []).filter((id) => !editUserIds.includes(id));
  return {
    appId: app?.appId,
    appName: values.appName.trim(),
    appType: values.appType,
    appIcon: values.appIcon ?? null,
    categoryId: values.categoryId === UNCATEGORISED_ID ? null : values.categoryId,
    password: values.password,
    path: values.path.trim(),
    publicPath: app ? app.publicPath : randomAppPath(),
    description: values.description ?? '',
    bundleIds: Object.fromEntries(
      bundleIdPlatforms.map((platform) => [platform, (values.bundleIds?.[platform] ?? []).map((id) => id.trim())]),
    ) as AppBundleIds,
    ...(app ? { supportUrl: app.supportUrl } : {}),
    devWeComUrl: values.devWeComUrl?.trim() || null,
    prodWeComUrl: values.prodWeComUrl?.trim() || null,
    sourceCommitKey: values.sourceCommitKey?.trim() || null,
    distributeUsers: [
      ...editUserIds.map((userId) => ({ userId, permit: 'edit' as const })),
      ...viewUserIds.map((userId) => ({ userId, permit: 'view' as const })),
    ],
  };
}

/** The parts of a zod schema a form rule needs (the contract's field schemas fit). */
interface FieldSchema {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: ReadonlyArray<{ message: string }> } };
}

/** An antd rule that checks a field with the contract's schema and shows its first message. */
export function contractRule(schema: FieldSchema): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? '');
    },
  };
}
