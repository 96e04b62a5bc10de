import { isDebugSigned, kindOfBuild, type AppVersionRow } from '@release/contract';
import type { Links } from '../../http/links.ts';
import type { StoredAttachment } from './version-columns.ts';
import type { VersionRecord } from './versions.repository.ts';

/** The stored attachments with download links. */
export async function attachmentLinks(
  links: Links,
  list: StoredAttachment[],
): Promise<Array<{ fileName: string; url: string }>> {
  return Promise.all(
    list.map(async (a) => ({ fileName: a.fileName, url: await links.fileUrl(a.fileKey, a.fileName) })),
  );
}

/** SPEC §3: a version as the API answers it, with its links for this request. */
export async function versionRow(links: Links, v: VersionRecord): Promise<AppVersionRow> {
  // The package facts (a few KB) are answered by GET /api/version_package_changes, not with every row of a list.
  const { facts: _facts, ...metadata } = v.metadata;
  return {
    id: v.id,
    appId: v.app_id,
    indexNo: v.index_no,
    nativePackageType: v.native_package_type,
    fileName: v.file_name,
    cdnUrl: await links.fileUrl(v.file_key, v.file_name),
    appVersion: v.app_version,
    build: v.build,
    bundleId: v.bundle_id,
    displayName: v.display_name,
    iconUrl: links.iconUrl(v.icon_key),
    appSize: v.app_size,
    description: v.description,
    uploadBy: v.uploader,
    updateTime: v.update_time,
    createTime: v.create_time,
    expireDate: v.expire_date,
    attachFiles: await attachmentLinks(links, v.attach_files),
    warnings: v.warnings,
    metadata,
    pinned: v.pinned === 1,
    debugSigned: isDebugSigned(
      kindOfBuild({ statedKind: v.metadata.kind, fileName: v.file_name, platform: v.native_package_type }),
      v.metadata,
    ),
  };
}
