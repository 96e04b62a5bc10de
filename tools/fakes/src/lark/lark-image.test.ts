import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../shared/clock.ts';
import { startLarkFake, type LarkFake } from './lark-fake.ts';
import { IMAGE_LIMIT_BYTES } from './routes/im.routes.ts';

type Answer = { code: number; msg: string; data?: { image_key?: string } };

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 5)]);

describe('Lark fake: im/v1/images', () => {
  let fake: LarkFake;
  let token: string;
  beforeEach(async () => {
    fake = await startLarkFake({ clock: new FakeClock({ frozen: true, start: Date.UTC(2026, 10, 23, 8) }) });
    const res = await fetch(`${fake.url}/open-apis/auth/v3/tenant_access_token/internal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: fake.app.appId, app_secret: fake.app.appSecret }),
    });
    token = ((await res.json()) as { tenant_access_token: string }).tenant_access_token;
  });
  afterEach(() => fake.close());

  async function upload(
    fields: Record<string, string>,
    image: Buffer | null,
    auth = `Bearer ${token}`,
  ): Promise<{ status: number; body: Answer }> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    if (image) form.set('image', new Blob([image], { type: 'image/png' }), 'icon.png');
    const res = await fetch(`${fake.url}/open-apis/im/v1/images`, {
      method: 'POST',
      headers: { authorization: auth },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Answer };
  }

  it('issues an img_ key for a real image and records what it stands for', async () => {
    const res = await upload({ image_type: 'message' }, PNG);
    expect(res.body.code).toBe(0);
    expect(res.body.data?.image_key).toMatch(/^img_v3_/);
    expect(fake.state.imImages).toEqual([
      expect.objectContaining({
        imageKey: res.body.data?.image_key,
        imageType: 'message',
        format: 'png',
        size: PNG.length,
        sha256: createHash('sha256').update(PNG).digest('hex'),
      }),
    ]);
  });

  it('refuses what Lark refuses: no token, wrong image_type, no image, empty, not an image, over 10 MB', async () => {
    expect((await upload({ image_type: 'message' }, PNG, 'Bearer t-forged')).body.code).toBe(99991663);
    expect((await upload({ image_type: 'sticker' }, PNG)).body.code).toBe(234001);
    expect((await upload({}, PNG)).body.code).toBe(234001);
    expect((await upload({ image_type: 'message' }, null)).body.code).toBe(234001);
    expect((await upload({ image_type: 'message' }, Buffer.alloc(0))).body.code).toBe(234010);
    // The part says image/png, but the bytes are text: Lark goes by content.
    expect((await upload({ image_type: 'message' }, Buffer.from('not an image at all'))).body).toMatchObject({
      code: 234011,
    });
    const huge = Buffer.concat([PNG, Buffer.alloc(IMAGE_LIMIT_BYTES)]);
    expect((await upload({ image_type: 'message' }, huge)).body.code).toBe(234006);
    expect(fake.state.imImages).toEqual([]);
  });

  it('holds the answer to the next upload until the test releases it; the key is issued meanwhile, the next upload is not held', async () => {
    const held = fake.hold('im.image.create');
    let answered = false;
    const first = upload({ image_type: 'message' }, PNG).then((res) => {
      answered = true;
      return res;
    });
    await held.reached;
    // Lark has the image (its key is issued) but the caller has not heard back.
    expect(fake.state.imImages).toHaveLength(1);
    const second = await upload({ image_type: 'message' }, PNG);
    expect(second.body.code).toBe(0);
    expect(answered).toBe(false);
    held.release();
    expect((await first).body.data?.image_key).toBe(fake.state.imImages[0]?.imageKey);
    expect(fake.state.imImages.map((i) => i.imageKey)).toEqual([
      (await first).body.data?.image_key,
      second.body.data?.image_key,
    ]);
  });

  it('sends what it holds on reset, so a failed test leaves no caller waiting', async () => {
    // A hold names a route or, as here, a path.
    const held = fake.hold('/open-apis/im/v1/images');
    const first = upload({ image_type: 'message' }, PNG);
    await held.reached;
    fake.reset();
    expect((await first).body.code).toBe(0);
  });
});
