import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { LarkClient } from '../../integrations/lark/lark-client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { MEDIA_ROUTE } from '../../http/links.ts';
import type { Logger } from '../../lib/logger.ts';

/** im/v1/images takes at most 10 MB; a bigger icon is not sent at all. */
export const LARK_IMAGE_CAP_BYTES = 10 * 1024 * 1024;
/** Stored media images Lark's im/v1/images also takes (videos are not icons). */
const MEDIA_KEY = /^media\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.(png|jpg|gif|webp)$/;
const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The blob key of an icon we store (`/api/media/<key>`, relative or absolute); null for anything else. */
export function storedIconKey(appIcon: string | null): string | null {
  if (!appIcon) return null;
  const at = appIcon.indexOf(MEDIA_ROUTE);
  if (at === -1) return null;
  const key = appIcon.slice(at + MEDIA_ROUTE.length).split(/[?#]/)[0] ?? '';
  return MEDIA_KEY.test(key) ? key : null;
}

async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export interface LarkIconDeps {
  db: Kysely<Database>;
  blobs: BlobStore;
  lark: LarkClient | null;
  clock: Clock;
  /** Why a card went without its icon (the push itself goes on). */
  logger?: Logger;
}

/**
 * The Lark image_key of an app icon, uploaded once per (Lark app, icon content) and kept in lark_image_keys.
 * Never throws: an icon that cannot be had (none, not ours, too big, Lark refused) is null, and the card
 * goes without it.
 */
export function createLarkIcons(deps: LarkIconDeps) {
  const { db, blobs, clock } = deps;
  /** Uploads under way in this process, so deliveries sent side by side share one (other processes may race: both keys work). */
  const pending = new Map<string, Promise<string>>();

  async function upload(lark: LarkClient, bytes: Buffer, key: string): Promise<string> {
    const extension = key.slice(key.lastIndexOf('.') + 1);
    const form = new FormData();
    form.set('image_type', 'message');
    form.set(
      'image',
      new Blob([new Uint8Array(bytes)], { type: CONTENT_TYPES[extension] ?? 'application/octet-stream' }),
      `icon.${extension}`,
    );
    const data = await lark.request('POST', '/open-apis/im/v1/images', { body: form, waitInPlace: false });
    if (typeof data.image_key !== 'string' || !data.image_key) throw new Error('飞书未返回 image_key');
    return data.image_key;
  }

  async function imageKey(appIcon: string | null): Promise<string | null> {
    const lark = deps.lark;
    const key = storedIconKey(appIcon);
    if (!lark || !key) return null;
    const stat = await blobs.stat(key);
    if (!stat || stat.size === 0) return null;
    if (stat.size > LARK_IMAGE_CAP_BYTES) {
      deps.logger?.warn({ key }, '应用图标超过 10 MB，飞书卡片不带图标');
      return null;
    }
    const bytes = await readAll(await blobs.read(key));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const appId = lark.config.appId;
    const stored = () =>
      db
        .selectFrom('lark_image_keys')
        .select('image_key')
        .where('lark_app_id', '=', appId)
        .where('content_sha256', '=', sha256)
        .executeTakeFirst();
    // Joined before the stored key is looked up: a delivery that read "none" while another's upload was finishing
    // would otherwise find nothing pending any more and upload the same icon again.
    const id = `${appId}|${sha256}`;
    let running = pending.get(id);
    if (!running) {
      running = (async () => {
        const known = await stored();
        if (known) return known.image_key;
        const uploaded = await upload(lark, bytes, key);
        await db
          .insertInto('lark_image_keys')
          .values({
            lark_app_id: appId,
            content_sha256: sha256,
            image_key: uploaded,
            size: bytes.length,
            create_time: clock.now(),
          })
          .onConflict((oc) => oc.columns(['lark_app_id', 'content_sha256']).doNothing())
          .execute();
        return (await stored())?.image_key ?? uploaded;
      })().finally(() => pending.delete(id));
      pending.set(id, running);
    }
    return running;
  }

  return {
    async forIcon(appIcon: string | null): Promise<string | null> {
      try {
        return await imageKey(appIcon);
      } catch (error) {
        deps.logger?.warn({ err: error }, '飞书图片上传失败，卡片不带图标');
        return null;
      }
    },
  };
}
export type LarkIcons = ReturnType<typeof createLarkIcons>;
