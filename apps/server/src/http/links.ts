import type { FastifyRequest } from 'fastify';
import { contentTypeOf } from '@release/contract';
import type { BlobStore } from '../storage/blob-store.ts';
import type { MediaLinks } from './media-links.ts';
import { publicBaseUrl } from './public-url.ts';

/** Links to package files expire; pages fetch fresh ones. */
export const DOWNLOAD_LINK_TTL_SEC = 60 * 60;

/** Where stored icons, screenshots and videos are served (`/api/media/<key>`). */
export const MEDIA_ROUTE = '/api/media/';

export interface LinkDeps {
  blobs: BlobStore;
  /** PUBLIC_URL: where users reach the API and pages. */
  publicUrl?: string;
  /** DOWNLOAD_BASE_URL: a CDN or download host in front of this server for package and media files. */
  downloadBaseUrl?: string;
  /** Signs icon and screenshot links (media-links.ts). */
  mediaLinks: MediaLinks;
}

/** Absolute links for one request: API links on the public base, file links on the download base. */
export function linksFor(request: FastifyRequest, deps: LinkDeps): Links {
  const apiBase = publicBaseUrl(request, deps.publicUrl);
  return createLinks({
    blobs: deps.blobs,
    mediaLinks: deps.mediaLinks,
    apiBase,
    filesBase: deps.downloadBaseUrl?.replace(/\/+$/, '') ?? apiBase,
  });
}

export function createLinks(deps: { blobs: BlobStore; mediaLinks: MediaLinks; apiBase: string; filesBase: string }) {
  const onFiles = (url: string) => new URL(url, `${deps.filesBase}/`).toString();
  return {
    apiBase: deps.apiBase,
    /** An absolute link to this server's API (manifests must come from the API host). */
    apiUrl: (url: string) => new URL(url, `${deps.apiBase}/`).toString(),
    /** A stored icon or screenshot by its media key, signed on the files base (the console, install page and manifest show it). */
    iconUrl: (key: string | null) => (key ? deps.mediaLinks.forKey(key, deps.filesBase) : null),
    /** A stored media link (an app icon, a screenshot) signed on the files base; other URLs as they are. */
    mediaUrl: (url: string | null) => deps.mediaLinks.signed(url, deps.filesBase),
    /** A signed, expiring download of a stored file, served with its kind's content type. */
    async fileUrl(fileKey: string, fileName: string): Promise<string> {
      return onFiles(
        await deps.blobs.downloadUrl(fileKey, {
          expiresInSec: DOWNLOAD_LINK_TTL_SEC,
          fileName,
          contentType: contentTypeOf(fileName),
        }),
      );
    },
  };
}
export type Links = ReturnType<typeof createLinks>;
