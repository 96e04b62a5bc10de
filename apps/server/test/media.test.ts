import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(500, 1)]);

function form(fields: Record<string, string>, file: { name: string; type: string; data: Buffer }) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  body.append('file', new Blob([file.data], { type: file.type }), file.name);
  return body;
}

// Upload of icons and snapshot media; storage itself is proved by blob-store.test.ts on disk and S3.
describe.each(testDialects())('icon and media upload (POST /api/upload) on %s', (dialect) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    token = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function upload(
    fields: Record<string, string>,
    file: { name: string; type: string; data: Buffer },
    auth = token,
  ) {
    const res = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { token: auth },
      body: form(fields, file),
    });
    return {
      status: res.status,
      body: (await res.json()) as { code: number; msg: string; data: { url: string; key: string } },
    };
  }

  it('stores a png icon and serves it back with its type', async () => {
    const res = await upload({ type: 'app' }, { name: 'icon.png', type: 'image/png', data: PNG });
    expect(res.body.code).toBe(200);
    // A link signed for the uploader's preview (media-access.test.ts proves who else gets one).
    expect(res.body.data.url).toMatch(
      new RegExp(`^${server.url}/api/media/media/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.png\\?expires=\\d+&signature=[\\w-]+$`),
    );
    const served = await fetch(res.body.data.url);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
  });

  it('refuses an icon that is not jpeg or png, by declared type and by content', async () => {
    const declared = await upload({ type: 'app' }, { name: 'icon.gif', type: 'image/gif', data: PNG });
    expect(declared.status).toBe(400);
    expect(declared.body.msg).toBe('必须上传图片类型的文件');
    const disguised = await upload(
      { type: 'app' },
      { name: 'evil.png', type: 'image/png', data: Buffer.from('<script>alert(1)</script> not an image at all') },
    );
    expect(disguised.status).toBe(400);
    expect(disguised.body.msg).toBe('必须上传图片类型的文件');
  });

  it('accepts a video as snapshot media and refuses other files there', async () => {
    const video = await upload({ type: 'media' }, { name: 'clip.mp4', type: 'video/mp4', data: MP4 });
    expect(video.body.code).toBe(200);
    expect(video.body.data.key).toMatch(/\.mp4$/);
    const text = await upload(
      { type: 'media' },
      { name: 'notes.txt', type: 'text/plain', data: Buffer.from('hello hello hello hello') },
    );
    expect(text.body.msg).toBe('必须上传图片或视频类型的文件');
    // A text file renamed .png passes the page's own check (name and declared type) and is refused by its content.
    const renamed = await upload(
      { type: 'media' },
      { name: 'crash.png', type: 'image/png', data: Buffer.from('not an image, only text') },
    );
    expect(renamed.status).toBe(400);
    expect(renamed.body.msg).toBe('必须上传图片或视频类型的文件');
  });

  it('requires a session to upload, and serves nothing outside the media keys', async () => {
    const anonymous = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      body: form({ type: 'app' }, { name: 'i.png', type: 'image/png', data: PNG }),
    });
    expect(anonymous.status).toBe(401);
    for (const path of [
      '/api/media/../../release.db',
      '/api/media/packages/x.ipa',
      '/api/media/media/2026/11/not-a-uuid.png',
    ]) {
      expect([path, (await fetch(`${server.url}${path}`)).status]).toEqual([path, 404]);
    }
  });
});
