import type { FastifyRequest } from 'fastify';
import type { AppVersionRow, NativePackageType } from '@release/contract';
import { publicBaseUrl } from '../../http/public-url.ts';
import type { PackageInspection } from '../../inspect/index.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { MEDIA_ROUTE } from '../media/media.service.ts';
import type { VersionRecord } from './versions.repository.ts';

/** Links to package files expire; pages fetch fresh ones. */
export const DOWNLOAD_LINK_TTL_SEC = 60 * 60;

export interface StoredAttachment {
  fileName: string;
  fileKey: string;
}

export const CONTENT_TYPES: Record<string, string> = {
  ipa: 'application/octet-stream',
  apk: 'application/vnd.android.package-archive',
  aab: 'application/octet-stream',
  zip: 'application/zip',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
};

export function contentTypeOf(fileName: string): string {
  const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** A single-page web package, opened in the browser by 打开 (a web zip is only downloaded). */
export function isHtmlFile(fileName: string): boolean {
  return contentTypeOf(fileName).startsWith('text/html');
}

/** SPEC §3: ios (ipa), android (apk, aab), web (zip, html), mac. */
export function nativeTypeOf(inspection: PackageInspection): NativePackageType {
  switch (inspection.kind) {
    case 'ipa':
      return 'ios';
    case 'apk':
    case 'aab':
      return 'android';
    case 'mac':
      return 'mac';
    case 'zip':
    case 'html':
      return 'web';
  }
}

/** What is kept of an inspection: everything but the icon bytes (stored as a file of its own). */
export function inspectionMetadata(inspection: PackageInspection): Record<string, unknown> {
  const icon = 'icon' in inspection && inspection.icon ? { format: inspection.icon.format, width: inspection.icon.width, height: inspection.icon.height, sourcePath: inspection.icon.sourcePath } : null;
  return JSON.parse(JSON.stringify({ ...inspection, icon })) as Record<string, unknown>;
}

export interface LinkDeps {
  blobs: BlobStore;
  /** PUBLIC_URL: where users reach the API and pages. */
  publicUrl?: string;
  /** DOWNLOAD_BASE_URL: a CDN or download host in front of this server for package and media files. */
  downloadBaseUrl?: string;
}

/** The presenter for one request: API links on the public base, file links on the download base. */
export function presenterFor(request: FastifyRequest, deps: LinkDeps) {
  const apiBase = publicBaseUrl(request, deps.publicUrl);
  return createVersionPresenter({ blobs: deps.blobs, apiBase, filesBase: deps.downloadBaseUrl?.replace(/\/+$/, '') ?? apiBase });
}

export function createVersionPresenter(deps: { blobs: BlobStore; apiBase: string; filesBase: string }) {
  const onFiles = (url: string) => new URL(url, `${deps.filesBase}/`).toString();
  return {
    apiBase: deps.apiBase,
    /** An absolute link to this server's API (manifests must come from the API host). */
    apiUrl: (url: string) => new URL(url, `${deps.apiBase}/`).toString(),
    iconUrl: (key: string | null) => (key ? `${deps.filesBase}${MEDIA_ROUTE}${key}` : null),
    async fileUrl(fileKey: string, fileName: string): Promise<string> {
      return onFiles(await deps.blobs.downloadUrl(fileKey, { expiresInSec: DOWNLOAD_LINK_TTL_SEC, fileName, contentType: contentTypeOf(fileName) }));
    },
    async attachments(raw: string) {
      const list = JSON.parse(raw) as StoredAttachment[];
      return Promise.all(list.map(async (a) => ({ fileName: a.fileName, url: await this.fileUrl(a.fileKey, a.fileName) })));
    },
    async row(v: VersionRecord): Promise<AppVersionRow> {
      return {
        id: v.id,
        appId: v.app_id,
        indexNo: v.index_no,
        nativePackageType: v.native_package_type,
        fileName: v.file_name,
        cdnUrl: await this.fileUrl(v.file_key, v.file_name),
        appVersion: v.app_version,
        build: v.build,
        bundleId: v.bundle_id,
        displayName: v.display_name,
        iconUrl: this.iconUrl(v.icon_key),
        appSize: v.app_size,
        description: v.description,
        uploadBy: v.uploader,
        updateTime: v.update_time,
        createTime: v.create_time,
        expireDate: v.expire_date,
        attachFiles: await this.attachments(v.attach_files),
        warnings: JSON.parse(v.warnings) as string[],
        metadata: JSON.parse(v.metadata) as Record<string, unknown>,
      };
    },
  };
}
export type VersionPresenter = ReturnType<typeof createVersionPresenter>;
