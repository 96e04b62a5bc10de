import { z } from 'zod';

/** SPEC §9: parts of 5 MB, 5 at a time, 3 retries, 60 s each. */
export const UPLOAD_PART_SIZE = 5 * 1024 * 1024;
export const UPLOAD_CONCURRENCY = 5;
export const UPLOAD_PART_RETRIES = 3;
export const UPLOAD_PART_TIMEOUT_MS = 60_000;
export const V2_UPLOAD_TIMEOUT_MS = 60_000;
/** SPEC §9: a package file sent in one request (api/upload; the one-request publish). */
export const PACKAGE_UPLOAD_TIMEOUT_MS = 300_000;
/** Upload progress: the transfer fills 80 %, registering the version the rest. */
export const UPLOAD_TRANSFER_SHARE = 0.8;

export const chatEnvs = ['DevTest', 'PreFavTest'] as const;

/** The longest package or attachment name get_signed_url takes (after trimming); the web checks it on pick. */
export const UPLOAD_FILE_NAME_MAX = 200;

const fileName = z
  .string()
  .trim()
  .min(1, '文件名不能为空')
  .max(UPLOAD_FILE_NAME_MAX, `文件名过长（最多 ${UPLOAD_FILE_NAME_MAX} 个字符）`);

/** POST /api/get_signed_url: the server names the objects; bytes then go through multi_signed_url_upload. */
export const getSignedUrlBody = z.object({
  appFileName: fileName.optional(),
  attachFileNames: z.array(fileName).max(20).default([]),
  /** `lark_attachment`: task and bug attachments, keyed `lark_attachment/` + 16 random characters + extension (SPEC §7). */
  scene: z.enum(['lark_attachment']).optional(),
  /** The app the files are for (a package's target, a task's app): the user needs an edit permit on it. */
  appId: z.coerce.number().int().min(1).optional(),
});
export const signedFileKey = z.object({ fileName: z.string(), fileKey: z.string() });
export const getSignedUrlResult = z.object({ appFile: signedFileKey.nullable(), attachFiles: z.array(signedFileKey) });
export type GetSignedUrlResult = z.infer<typeof getSignedUrlResult>;

export const multipartStartBody = z.object({
  functionName: z.literal('start'),
  fileKey: z.string().max(512),
  fileSize: z.coerce.number().int().min(1, '文件为空'),
});
export const multipartFinishBody = z.object({
  functionName: z.literal('finish'),
  fileKey: z.string().max(512),
  uploadId: z.string().max(64),
  tags: z.array(z.object({ partNo: z.coerce.number().int().min(1), etag: z.string().max(128) })).max(10_000),
});
export const multipartBody = z.discriminatedUnion('functionName', [multipartStartBody, multipartFinishBody]);
export type MultipartBody = z.infer<typeof multipartBody>;

export const multipartStartResult = z.object({
  uploadId: z.string(),
  partSize: z.number(),
  uploadParamsList: z.array(z.object({ partNo: z.number(), signedUrl: z.string() })),
});
export type MultipartStartResult = z.infer<typeof multipartStartResult>;
export const multipartFinishResult = z.object({ fileKey: z.string(), fileSize: z.number() });

/** POST /api/v2/upload_app: registers an uploaded package as a version (or, with appVersionId, edits one). */
export const uploadAppBody = z.object({
  appId: z.coerce.number().int().min(1),
  description: z.string().max(20_000).default(''),
  s3Url: z.string().max(512).optional(),
  /**
   * The other modules of a HarmonyOS version uploaded beside `s3Url` (.hap / .hsp, uploaded the same way): entry,
   * features and shared modules together become one version.
   */
  moduleFileUrls: z.array(z.string().max(512)).max(31).default([]),
  attachFileUrls: z.array(z.string().max(512)).max(20).default([]),
  chatEnv: z.enum(chatEnvs).nullable().optional(),
  appVersionId: z.coerce.number().int().min(1).optional(),
  /** Publish a package whose bundle id / package name is not one of the app's (the uploader confirmed it). */
  allowOtherBundleId: z.boolean().optional(),
  /** Where the build came from (CI): kept with the version. */
  commit: z.string().trim().max(128).optional(),
  branch: z.string().trim().max(255).optional(),
});
export type UploadAppBody = z.infer<typeof uploadAppBody>;

const formFlag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes' || v === 'on');

/**
 * POST /api/upload_app/direct (multipart/form-data, one request for CI): the text fields beside `file`. The app is
 * named by `path` (its download path) or `appId`, before `file` or in the query; the others may come in any order.
 */
export const directUploadFields = z.object({
  appId: z.coerce.number().int().min(1).optional(),
  path: z.string().trim().min(1).max(64).optional(),
  /** The version's description (更新说明); `description` is taken too. */
  note: z.string().max(20_000).optional(),
  description: z.string().max(20_000).optional(),
  chatEnv: z
    .enum(chatEnvs)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  commit: z.string().trim().max(128).optional(),
  branch: z.string().trim().max(255).optional(),
  /** Publish even though the package's bundle id / package name is not one of the app's. */
  allowOtherBundleId: formFlag.optional(),
});
export type DirectUploadFields = z.infer<typeof directUploadFields>;
