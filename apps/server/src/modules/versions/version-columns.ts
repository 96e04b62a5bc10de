import { z } from 'zod';
import { packageFacts } from '@release/contract';
import { jsonColumn } from '../../db/json-column.ts';

/** A field of stored metadata read as absent when it does not have its type (rows written by older inspectors). */
const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** A version's attachment as stored in `attach_files`. */
export const storedAttachment = z.object({ fileName: z.string(), fileKey: z.string() });
export type StoredAttachment = z.output<typeof storedAttachment>;

/**
 * The parts of an inspection (`app_versions.metadata`) the server reads; every field optional, as old rows lack
 * some. Everything else stored is kept as it is (the versions API answers the whole object).
 */
export const storedInspection = z.looseObject({
  kind: optional(z.string()),
  deviceFamilies: optional(z.array(z.string())),
  targetSdkVersion: optional(z.number().nullable()),
  minSdkVersion: optional(z.number().nullable()),
  minimumOsVersion: optional(z.string().nullable()),
  permissions: optional(z.array(z.string())),
  nativeAbis: optional(z.array(z.string())),
  fileCount: optional(z.number()),
  title: optional(z.string().nullable()),
  indexHtmlPath: optional(z.string().nullable()),
  /** What later builds are compared on (issue 19); absent on builds published before them, or damaged. */
  facts: optional(packageFacts),
  /** The app's thresholds this build crossed when it was published (its tag, its push's first line). */
  packageAlerts: optional(z.array(z.string().max(300)).max(10)),
  provisioningProfile: optional(
    z
      .looseObject({
        name: optional(z.string().nullable()),
        type: optional(z.string()),
        teamName: optional(z.string().nullable()),
        teamId: optional(z.string().nullable()),
        expiresAt: optional(z.string().nullable()),
        provisionedDevices: optional(z.array(z.string())),
        provisionsAllDevices: optional(z.boolean()),
      })
      .nullable(),
  ),
});
export type StoredInspection = z.output<typeof storedInspection>;

/** A damaged value reads as nothing stored: the version still lists, installs and can be removed. */
export const versionColumns = {
  attachFiles: jsonColumn('app_versions.attach_files', z.array(storedAttachment), { fallback: () => [] }),
  metadata: jsonColumn('app_versions.metadata', storedInspection, { fallback: () => ({}) }),
  warnings: jsonColumn('app_versions.warnings', z.array(z.string()), { fallback: () => [] }),
};
