import { createRequire } from 'node:module';
import type { LarkFake } from '@release/fakes';
import type { WikiSpaceList } from '@release/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from './helpers/dialects.ts';
import { EVENT_PATH, startDocsFake, startDocsServer } from './helpers/lark-docs-world.ts';
import type { TestServer } from './helpers/test-app.ts';

const require = createRequire(import.meta.url);
const sdkEntry = require.resolve('@larksuiteoapi/node-sdk');
/** Node keeps every CommonJS module it loaded in require.cache, including those reached by `import`. */
const sdkLoaded = () => sdkEntry in require.cache;

// Whether a module is loaded is a fact about this process, so one database: once a call has loaded the SDK, a
// second server in the same process cannot show it unloaded again.
const [dialect] = testDialects();

describe(`the Lark SDK (~30 MiB) is loaded by the first Lark call, not when the server starts (${dialect})`, () => {
  let lark: LarkFake;
  let server: TestServer;

  beforeAll(async () => {
    lark = await startDocsFake();
    lark.addWikiSpace({ space_id: '7001', name: '研发知识库' });
    lark.app.encryptKey = 'encrypt-key-of-the-lark-console';
    server = await startDocsServer(dialect ?? 'sqlite', lark, {
      verificationToken: lark.app.verificationToken,
      encryptKey: lark.app.encryptKey,
    });
  });
  afterAll(async () => {
    await server?.close();
    await lark?.close();
  });

  it('a started server with Lark configured answers an encrypted event without it, and the wiki list loads it', async () => {
    expect(sdkLoaded()).toBe(false);
    const user = (await server.createUser({ username: 'reader' })).token;
    expect(await lark.verifyEventUrl(`${server.url}${EVENT_PATH}`)).toMatchObject({ ok: true, status: 200 });
    expect(sdkLoaded()).toBe(false);

    const spaces = await server.request<WikiSpaceList>('GET', '/api/wiki/space/list', { token: user });
    expect(spaces.status).toBe(200);
    expect(JSON.stringify(spaces.body.data)).toContain('研发知识库');
    expect(sdkLoaded()).toBe(true);
  });
});
