import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WorkflowRow } from '@release/contract';
import type { Database } from '../src/db/schema.ts';
import { storedIconKey } from '../src/modules/messaging/lark-icon.ts';
import type { BlobStore } from '../src/storage/blob-store.ts';
import { testDialects } from './helpers/dialects.ts';
import { insertItems, startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';

type Card = { header: { title: { content: string }; icon?: { tag: string; img_key: string } } };

/** A PNG as the icon upload takes it (told by its signature), made distinct by its filler. */
const png = (fill: number) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, fill)]);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Holds the server's lookups of a stored image key (the server runs in this process), every one but the first, until
 * `release`: a held lookup has read the table but its delivery goes on only when the test says. Whether a lookup is
 * held is settled when it is made, so `stopHolding` lets later ones through and keeps those already held.
 */
function holdKeyLookups(db: Kysely<Database>) {
  const executor = db.getExecutor();
  const original = executor.executeQuery.bind(executor);
  let made = 0;
  let holding = true;
  const reads: Array<Promise<unknown>> = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const spy = vi.spyOn(executor, 'executeQuery').mockImplementation((async (query, options) => {
    const lookup = query.sql.startsWith('select') && query.sql.includes('from "lark_image_keys"');
    const hold = lookup && made++ > 0 && holding;
    const answer = original(query, options);
    if (!hold) return answer;
    reads.push(answer);
    const result = await answer;
    await released;
    return result;
  }) as typeof executor.executeQuery);
  return {
    /** Settles once every lookup held so far has read the table. */
    read: () => Promise.all(reads),
    stopHolding: () => {
      holding = false;
    },
    release: () => {
      holding = false;
      release();
    },
    restore: () => spy.mockRestore(),
  };
}

/** Counts the server's reads of one blob that were read to the end (the point where a delivery has the icon's bytes). */
function countReads(blobs: BlobStore, key: string) {
  const original = blobs.read.bind(blobs);
  let done = 0;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const spy = vi.spyOn(blobs, 'read').mockImplementation(async (asked, range) => {
    const stream = await original(asked, range);
    if (asked !== key) return stream;
    const iterate = stream[Symbol.asyncIterator].bind(stream);
    stream[Symbol.asyncIterator] = async function* () {
      yield* iterate();
      done += 1;
      for (const w of waiting.filter((w) => done >= w.count)) w.resolve();
    } as Readable[typeof Symbol.asyncIterator];
    return stream;
  });
  return {
    reached: (count: number) =>
      done >= count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve })),
    restore: () => spy.mockRestore(),
  };
}

describe.each(testDialects())('Lark cards carry the app icon on %s', (dialect) => {
  let world: MessagingWorld;
  let workflow: WorkflowRow;
  let itemId: number;

  /** The admin uploads an icon (POST /api/upload) and makes it the app's icon; answers its address. */
  async function setIcon(data: Buffer): Promise<string> {
    const body = new FormData();
    body.append('type', 'app');
    body.append('file', new Blob([data], { type: 'image/png' }), 'icon.png');
    const res = await fetch(`${world.server.url}/api/upload`, {
      method: 'POST',
      headers: { token: world.admin },
      body,
    });
    const json = (await res.json()) as { code: number; data: { url: string } };
    expect(json.code).toBe(200);
    await world.server.db.updateTable('apps').set({ app_icon: json.data.url }).where('id', '=', world.appId).execute();
    return json.data.url;
  }

  const cardsAtLark = () => world.lark.botMessages.length + world.lark.imMessages.length;

  /** Sends the item to the workflow's robot and to the editor through the app bot (two deliveries, run side by side). */
  async function sendBoth() {
    // A second apart: Lark takes at most 5 messages a second to one user.
    await world.advance(1000);
    const robotCount = world.lark.botMessages.length;
    const imCount = world.lark.imMessages.length;
    const toRobot = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'commit', workflowId: workflow.id, commitId: itemId },
      world.editor.token,
    );
    const toSelf = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'self', workflowId: workflow.id, commitId: itemId },
      world.editor.token,
    );
    return {
      cardsBefore: robotCount + imCount,
      /** Both cards as Lark got them, once the jobs ran. */
      async cards(): Promise<{ robot: Card; im: Card; statuses: string[] }> {
        const rows = await world.deliveries(
          [...toRobot.body.data.deliveryIds, ...toSelf.body.data.deliveryIds],
          world.editor.token,
        );
        expect(world.lark.botMessages).toHaveLength(robotCount + 1);
        expect(world.lark.imMessages).toHaveLength(imCount + 1);
        return {
          robot: world.lark.botMessages.at(-1)?.card as Card,
          im: JSON.parse(world.lark.imMessages.at(-1)?.content ?? '{}') as Card,
          statuses: rows.map((r) => r.status),
        };
      },
    };
  }

  /** Pushes the item to the workflow's robot and to the editor through the app bot; answers both cards. */
  async function pushBoth(): Promise<{ robot: Card; im: Card; statuses: string[] }> {
    const sent = await sendBoth();
    await world.runJobs();
    return sent.cards();
  }

  beforeAll(async () => {
    world = await startMessagingWorld(dialect);
    const bot = world.lark.addBot({});
    workflow = await world.createWorkflow({
      tabName: '客户端',
      robotUrl: `${world.lark.url}/open-apis/bot/v2/hook/${bot.token}`,
    });
    [itemId] = (await insertItems(world.server, { id: workflow.id, appId: world.appId }, [
      {
        commitId: 'c0ffee00c0ffee00',
        message: 'feat: 新的关卡',
        author: '张三',
        time: world.server.clock.now() - 60_000,
      },
    ])) as [number];
  });
  afterAll(async () => {
    await world?.close();
  });

  it('uploads the icon once and shows it in robot and app-bot cards; a new icon gets a new key', async () => {
    const first = png(1);
    await setIcon(first);
    const one = await pushBoth();
    expect(one.statuses).toEqual(['sent', 'sent']);
    // The fake issued one key, for exactly these bytes, as a message image of our app.
    expect(world.lark.state.imImages).toHaveLength(1);
    const issued = world.lark.state.imImages[0];
    expect(issued).toMatchObject({
      sha256: sha256(first),
      imageType: 'message',
      format: 'png',
      appId: world.lark.app.appId,
    });
    expect(one.robot.header).toMatchObject({
      title: { content: '星际战舰 · 客户端 更新日志' },
      icon: { tag: 'custom_icon', img_key: issued?.imageKey },
    });
    expect(one.im.header.icon).toEqual({ tag: 'custom_icon', img_key: issued?.imageKey });

    // A second push reuses the key: still one upload.
    const two = await pushBoth();
    expect(two.robot.header.icon?.img_key).toBe(issued?.imageKey);
    expect(two.im.header.icon?.img_key).toBe(issued?.imageKey);
    expect(world.lark.state.imImages).toHaveLength(1);

    // The admin changes the icon: the next card shows a new key issued for the new bytes.
    const second = png(2);
    await setIcon(second);
    const three = await pushBoth();
    expect(world.lark.state.imImages).toHaveLength(2);
    const renewed = world.lark.state.imImages[1];
    expect(renewed?.sha256).toBe(sha256(second));
    expect(renewed?.imageKey).not.toBe(issued?.imageKey);
    expect(three.robot.header.icon?.img_key).toBe(renewed?.imageKey);
    expect(three.im.header.icon?.img_key).toBe(renewed?.imageKey);
  });

  it('sends the card without an icon when Lark refuses the upload, and uploads at the next push', async () => {
    const icon = png(3);
    await setIcon(icon);
    const before = world.lark.state.imImages.length;
    world.lark.injectError({
      route: 'im.image.create',
      status: 400,
      body: { code: 234011, msg: "Can't recognize the image format" },
      times: 100,
    });
    const refused = await pushBoth();
    expect(refused.statuses).toEqual(['sent', 'sent']);
    expect(refused.robot.header.icon).toBeUndefined();
    expect(refused.im.header.icon).toBeUndefined();
    expect(world.lark.state.imImages).toHaveLength(before);

    // Lark takes images again (the fake forgets the injected errors and what it recorded).
    world.lark.reset();
    const later = await pushBoth();
    expect(world.lark.state.imImages).toHaveLength(1);
    const issued = world.lark.state.imImages[0];
    expect(issued?.sha256).toBe(sha256(icon));
    expect(later.robot.header.icon?.img_key).toBe(issued?.imageKey);
  });

  it('sends the card without an icon over Lark’s 10 MB, without trying to upload it', async () => {
    await setIcon(Buffer.concat([png(4), Buffer.alloc(10 * 1024 * 1024, 4)]));
    const uploads = () => world.lark.requests.filter((r) => r.route === 'im.image.create').length;
    const before = uploads();
    const sent = await pushBoth();
    expect(sent.statuses).toEqual(['sent', 'sent']);
    expect(sent.robot.header.icon).toBeUndefined();
    expect(sent.im.header.icon).toBeUndefined();
    expect(uploads()).toBe(before);
  });

  it('leaves the icon out when the app has none of ours (no icon, or an address elsewhere)', async () => {
    for (const appIcon of [
      null,
      'https://cdn.example.com/api/media/media/2026/11/00000000-0000-0000-0000-000000000000.png',
    ]) {
      await world.server.db.updateTable('apps').set({ app_icon: appIcon }).where('id', '=', world.appId).execute();
      const before = world.lark.state.imImages.length;
      const sent = await pushBoth();
      expect(sent.statuses).toEqual(['sent', 'sent']);
      expect(sent.robot.header.icon).toBeUndefined();
      expect(sent.im.header.icon).toBeUndefined();
      expect(world.lark.state.imImages).toHaveLength(before);
    }
  });

  it('two deliveries side by side upload a new icon once: the second joins the upload under way, and both cards carry its key', async () => {
    const icon = png(5);
    const key = storedIconKey(await setIcon(icon)) ?? '';
    const before = world.lark.state.imImages.length;
    const upload = world.lark.hold('im.image.create');
    const lookups = holdKeyLookups(world.server.db);
    const reads = countReads(world.server.blobs, key);
    try {
      const sent = await sendBoth();
      const ran = world.runJobs();
      // One delivery's upload is at Lark, held there; the other has the icon's bytes. What it does next needs no
      // I/O, so a turn of the event loop later it has joined the upload, or looked up the key (held here, read "none").
      await upload.reached;
      await reads.reached(2);
      await new Promise((resolve) => setImmediate(resolve));
      await lookups.read();
      lookups.stopHolding();
      upload.release();
      // The upload ends, its delivery stores the key and sends its card; only then may a held lookup go on.
      await expect.poll(cardsAtLark, { timeout: 15_000 }).toBeGreaterThan(sent.cardsBefore);
      lookups.release();
      await ran;
      const cards = await sent.cards();
      expect(cards.statuses).toEqual(['sent', 'sent']);
      expect(world.lark.state.imImages.slice(before).map((i) => i.sha256)).toEqual([sha256(icon)]);
      const issued = world.lark.state.imImages.at(-1)?.imageKey;
      expect(cards.robot.header.icon?.img_key).toBe(issued);
      expect(cards.im.header.icon?.img_key).toBe(issued);
    } finally {
      upload.release();
      lookups.release();
      lookups.restore();
      reads.restore();
    }
  });
});
