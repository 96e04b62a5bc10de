import type { FastifyRequest } from 'fastify';
import { contentTypeOf, type AppVersionRow } from '@release/contract';
import { publicBaseUrl } from '../../http/public-url.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { MEDIA_ROUTE } from '../media/media.service.ts';
import type { VersionRecord } from './versions.repository.ts';

/** Links to package files expire; pages fetch fresh ones. */
export const DOWNLOAD_LINK_TTL_SEC = 60 * 60;

export interface StoredAttachment {
  fileName: string;
  fileKey: string;
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
