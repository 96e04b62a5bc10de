import type * as Lark from '@larksuiteoapi/node-sdk';
import { LarkApiError, type LarkConfig } from './lark-client.ts';

/** Lark's codes for a tenant token that is no longer valid: forget it, fetch a new one and try once more. */
const STALE_TOKEN_CODES = new Set([99991663, 99991664, 99991665]);
/** Contract §F: wiki lists take at most 50 per page. */
const WIKI_PAGE_SIZE = 50;
/** A space or folder level larger than this is cut (20 pages of 50): the list is for people to browse. */
const MAX_PAGES = 20;

export interface WikiSpaceRow {
  space_id: string;
  name: string;
  description: string;
  space_type: string;
  visibility: string;
}

export interface WikiNodeRow {
  space_id: string;
  node_token: string;
  obj_token: string;
  obj_type: string;
  parent_node_token: string;
  node_type: string;
  has_child: boolean;
  title: string;
  obj_edit_time: string;
}

/** Drive file types the subscribe endpoint takes (contract §F). */
export type DriveFileType = 'doc' | 'docx' | 'sheet' | 'bitable' | 'file' | 'folder' | 'slides';

// The SDK logs every thrown HTTP error whatever the level; our callers report failures themselves.
const quiet = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
};

interface Envelope<T> {
  code?: number;
  msg?: string;
  data?: T;
}

/**
 * Wiki, drive subscription and docx calls through the official SDK pointed at LARK_OPEN_BASE_URL. The SDK keeps
 * the tenant token in a cache of ours, so a token Lark revoked early (99991663) is forgotten and fetched again
 * (the SDK alone would keep sending it). Every failure becomes a LarkApiError with Lark's code and HTTP status.
 */
export function createLarkDocsClient(config: LarkConfig) {
  const tokens = new Map<string | symbol, { value: unknown; expire: number | undefined }>();
  const cache: Lark.Cache = {
    async set(key, value, expire) {
      tokens.set(key as string | symbol, { value, expire });
      return true;
    },
    async get(key) {
      const entry = tokens.get(key as string | symbol);
      if (!entry) return undefined;
      if (entry.expire !== undefined && entry.expire <= Date.now()) {
        tokens.delete(key as string | symbol);
        return undefined;
      }
      return entry.value;
    },
  };
  // The SDK (~30 MiB of memory, 0.3 s) is loaded by the first call, not when the server starts.
  let client: Promise<Lark.Client> | null = null;
  const sdkClient = () =>
    (client ??= import('@larksuiteoapi/node-sdk').then(
      (lark) =>
        new lark.Client({
          appId: config.appId,
          appSecret: config.appSecret,
          domain: config.openBaseUrl,
          cache,
          loggerLevel: lark.LoggerLevel.fatal,
          logger: quiet,
        }),
    ));

  async function call<T>(run: (c: Lark.Client) => Promise<Envelope<T>>): Promise<T> {
    const sdk = await sdkClient();
    for (let attempt = 0; ; attempt += 1) {
      let status = 200;
      let body: Envelope<T>;
      try {
        body = await run(sdk);
      } catch (error) {
        const response = (error as { response?: { status?: number; data?: unknown } }).response;
        if (!response) {
          const message = error instanceof Error ? error.message : String(error);
          // A token fetch that failed is reported by the SDK as "failed to get tenant_access_token, code: X".
          const code = Number(/code: (\d+)/.exec(message)?.[1] ?? -1);
          throw new LarkApiError(0, code, message);
        }
        status = response.status ?? 0;
        body = (typeof response.data === 'object' && response.data !== null ? response.data : {}) as Envelope<T>;
      }
      if (status === 200 && body.code === 0) return (body.data ?? {}) as T;
      const code = typeof body.code === 'number' ? body.code : -1;
      if (attempt === 0 && STALE_TOKEN_CODES.has(code)) {
        tokens.clear();
        continue;
      }
      throw new LarkApiError(status, code, body.msg ?? `HTTP ${status}`);
    }
  }

  /** Follows page_token until has_more is false (or MAX_PAGES pages). */
  async function allPages<T>(
    page: (pageToken: string | undefined) => Promise<{ items?: T[]; has_more?: boolean; page_token?: string }>,
  ): Promise<T[]> {
    const out: T[] = [];
    let pageToken: string | undefined;
    for (let n = 0; n < MAX_PAGES; n += 1) {
      const data = await page(pageToken);
      out.push(...(data.items ?? []));
      if (!data.has_more || !data.page_token) break;
      pageToken = data.page_token;
    }
    return out;
  }

  return {
    /** Every wiki space the bot belongs to (GET /open-apis/wiki/v2/spaces, all pages). */
    listSpaces(): Promise<WikiSpaceRow[]> {
      return allPages((pageToken) =>
        call((c) => c.wiki.v2.space.list({ params: { page_size: WIKI_PAGE_SIZE, page_token: pageToken } })),
      ) as Promise<WikiSpaceRow[]>;
    },

    /** The children of a node, or the root nodes of a space (GET /open-apis/wiki/v2/spaces/:space_id/nodes, all pages). */
    listNodes(spaceId: string, parentNodeToken?: string): Promise<WikiNodeRow[]> {
      return allPages((pageToken) =>
        call((c) =>
          c.wiki.v2.spaceNode.list({
            path: { space_id: spaceId },
            params: {
              page_size: WIKI_PAGE_SIZE,
              page_token: pageToken,
              parent_node_token: parentNodeToken || undefined,
            },
          }),
        ),
      ) as Promise<WikiNodeRow[]>;
    },

    /** A wiki node by its node token, or by the token and type of the document it holds. */
    async getNode(token: string, objType = 'wiki'): Promise<WikiNodeRow> {
      const data = await call((c) => c.wiki.v2.space.getNode({ params: { token, obj_type: objType as 'wiki' } }));
      return data.node as WikiNodeRow;
    },

    /** POST /open-apis/drive/v1/files/:file_token/subscribe (a folder only for file.created_in_folder_v1). */
    async subscribe(fileToken: string, fileType: DriveFileType): Promise<void> {
      await call((c) =>
        c.drive.v1.file.subscribe({
          path: { file_token: fileToken },
          params: {
            file_type: fileType,
            ...(fileType === 'folder' ? { event_type: 'file.created_in_folder_v1' } : {}),
          },
        }),
      );
    },

    /** DELETE …/delete_subscribe; "not subscribed" (1069605) counts as done. */
    async unsubscribe(fileToken: string, fileType: DriveFileType): Promise<void> {
      try {
        await call((c) =>
          c.drive.v1.file.deleteSubscribe({ path: { file_token: fileToken }, params: { file_type: fileType } }),
        );
      } catch (error) {
        if (!(error instanceof LarkApiError && error.code === 1069605)) throw error;
      }
    },

    /** A docx document's plain text (GET /open-apis/docx/v1/documents/:document_id/raw_content). */
    async docxText(documentId: string): Promise<string> {
      const data = await call((c) =>
        c.docx.v1.document.rawContent({ path: { document_id: documentId }, params: { lang: 0 } }),
      );
      return data.content ?? '';
    },
  };
}
export type LarkDocsClient = ReturnType<typeof createLarkDocsClient>;
