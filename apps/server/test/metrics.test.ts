import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobQueueRow } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { insertItems, startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { publishedApp } from './helpers/published-app.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

/** The samples of a scrape: `name{labels}` → value (labels as the server writes them). */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

async function scrape(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe.each(testDialects())('/metrics on %s', (dialect) => {
  let world: MessagingWorld;
  let server: TestServer;
  let itemIds: number[];
  let sentKey: string;
  const apkBytes = sampleApk({ versionName: '1.0.0' }).length;

  beforeAll(async () => {
    world = await startMessagingWorld(dialect);
    server = world.server;
    sentKey = world.wecom.addRobot({ name: '测试群机器人' }).key;
    const workflow = await world.createWorkflow({ tabName: '服务端' });
    itemIds = await insertItems(server, { id: workflow.id, appId: world.appId }, [
      { commitId: '1111111aaaaaaa', message: 'feat: 新关卡', author: '王五', time: server.clock.now() - 1000 },
    ]);
  });
  afterAll(async () => {
    await world?.close();
  });

  const setRobot = (key: string) =>
    server.db
      .updateTable('apps')
      .set({ dev_wecom_url: world.wecom.robotUrl(key) })
      .where('id', '=', world.appId)
      .execute();
  const pushItem = () =>
    world.send('/api/send_wecom_message', { appId: world.appId, receiveType: 'chat', commitId: itemIds[0] });

  it('counts requests by route pattern and status, an upload and its bytes, and storage by app', async () => {
    const shop = await publishedApp(server);
    await shop.publish('1.0.0');
    for (let i = 0; i < 3; i += 1)
      await server.request('GET', '/api/apps?pageNo=1&pageSize=10', { token: world.admin });
    await fetch(`${server.url}/api/workflow/push/not-a-real-token-123`, { method: 'POST', body: '{}' });
    await fetch(`${server.url}/no/such/page/at/all.php`);

    const res = await scrape(server.url);
    expect(res.status).toBe(200);
    expect(res.type).toContain('text/plain; version=0.0.4');
    const m = samples(res.text);
    expect(m.get('release_http_requests_total{method="GET",route="/api/apps",status="200"}')).toBe(3);
    expect(m.get('release_http_request_duration_seconds_count{method="GET",route="/api/apps",status="200"}')).toBe(3);
    expect(
      m.get('release_http_request_duration_seconds_bucket{method="GET",route="/api/apps",status="200",le="+Inf"}'),
    ).toBe(3);
    // The route's pattern, never the URL: the token in the path does not reach the metrics.
    expect(res.text).toContain('route="/api/workflow/push/:token"');
    expect(res.text).not.toContain('not-a-real-token-123');
    expect(res.text).not.toContain('all.php');
    expect(
      [...m.keys()].some((k) => k.startsWith('release_http_requests_total{method="GET",route="(unmatched)"')),
    ).toBe(true);
    expect(m.get('release_uploads_total{platform="android"}')).toBe(1);
    expect(m.get('release_upload_bytes_total{platform="android"}')).toBe(apkBytes);
    expect(m.get(`release_storage_bytes{app_id="${shop.appId}",app="商城"}`)).toBe(apkBytes);
    expect(m.get('process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(m.get('nodejs_heap_bytes{kind="used"}')).toBeGreaterThan(0);
    expect(m.get(`release_db_info{dialect="${dialect}"}`)).toBe(1);
    if (dialect === 'postgres') {
      expect(m.get('release_db_pool_connections{state="max"}')).toBe(10);
      expect(m.get('release_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    } else {
      expect(res.text).not.toContain('release_db_pool_connections{');
    }
    // The event-loop delay sampler starts with the first scrape; a later one reports what it measured.
    await vi.waitFor(
      async () =>
        expect(
          samples((await scrape(server.url)).text).get('nodejs_eventloop_lag_seconds{quantile="max"}'),
        ).toBeGreaterThan(0),
      { timeout: 5_000, interval: 50 },
    );
  });

  it('counts a delivery sent and one the WeCom fake refused (93000), and shows the queue as the admin page does', async () => {
    await setRobot(sentKey);
    await pushItem();
    await setRobot('removed-robot-key');
    await pushItem();
    // Queued, not run yet: two deliveries wait, the oldest for 5 s.
    await world.advance(5_000);
    let m = samples((await scrape(server.url)).text);
    expect(m.get('release_jobs{kind="messaging.delivery",status="pending"}')).toBe(2);
    expect(m.get('release_jobs_oldest_pending_age_seconds{kind="messaging.delivery"}')).toBe(5);
    const page = await server.request<JobQueueRow[]>('GET', '/api/system_setting/job_queue', { token: world.admin });
    expect(page.body.data.find((r) => r.kind === 'messaging.delivery')).toEqual({
      kind: 'messaging.delivery',
      pending: 2,
      running: 0,
      failed: 0,
      oldestPendingAgeMs: 5_000,
    });
    expect((await server.request('GET', '/api/system_setting/job_queue', { token: world.viewer.token })).status).toBe(
      403,
    );

    await world.runJobs();
    m = samples((await scrape(server.url)).text);
    expect(m.get('release_deliveries_total{receiver="wecom-robot",outcome="sent"}')).toBe(1);
    expect(m.get('release_deliveries_total{receiver="wecom-robot",outcome="failed"}')).toBe(1);
    expect(m.get('release_jobs{kind="messaging.delivery",status="pending"}')).toBe(0);
    expect(m.get('release_jobs{kind="messaging.delivery",status="failed"}')).toBe(1);
    expect(m.get('release_jobs_oldest_pending_age_seconds{kind="messaging.delivery"}')).toBe(0);
  });

  it('without METRICS_TOKEN answers only a loopback peer that no proxy forwarded', async () => {
    const proxied = await scrape(server.url, { 'x-forwarded-for': '203.0.113.9' });
    expect(proxied.status).toBe(403);
    expect(proxied.text).toContain('METRICS_TOKEN');
    expect((await scrape(server.url)).status).toBe(200);
  });
});

describe.each(testDialects())('/metrics behind METRICS_TOKEN on %s', (dialect) => {
  let server: TestServer;
  const token = 'metrics-token-0123456789';

  beforeAll(async () => {
    server = await startTestServer(dialect, { metricsToken: token });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a scrape without the token or with another one, and answers with it', async () => {
    const none = await scrape(server.url);
    expect(none.status).toBe(401);
    expect(none.text).toContain('Authorization: Bearer');
    expect((await scrape(server.url, { authorization: 'Bearer metrics-token-wrong-000000' })).status).toBe(401);
    const good = await scrape(server.url, { authorization: `Bearer ${token}` });
    expect(good.status).toBe(200);
    expect(good.text).toContain('# TYPE release_http_requests_total counter');
    // Through a proxy too: the token is what counts.
    expect(
      (await scrape(server.url, { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' })).status,
    ).toBe(200);
  });
});
