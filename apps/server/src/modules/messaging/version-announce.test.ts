import { describe, expect, it } from 'vitest';
import { composeContent, type ComposeInput } from './compose.ts';
import { createMediaLinks } from '../../http/media-links.ts';
import { larkWebhookBody } from './lark-card.ts';
import { wecomBody, wecomMarkdown } from './wecom-message.ts';

const base = 'https://release.example.com';
const app = { id: 1, app_name: '商城', app_icon: null, path: 'shop' } as unknown as ComposeInput['app'];
const version = (overrides: Partial<NonNullable<ComposeInput['version']>>) =>
  ({
    id: 9,
    index_no: 3,
    native_package_type: 'android',
    app_version: '2.1.0',
    build: '210',
    description: '修复登录',
    uploader: '张三',
    ...overrides,
  }) as NonNullable<ComposeInput['version']>;
const announce = (v: NonNullable<ComposeInput['version']>) =>
  composeContent({
    app,
    workflow: null,
    version: v,
    commits: [],
    totalCommits: 0,
    baseUrl: base,
    mediaLinks: createMediaLinks({ secret: 'k'.repeat(32), clock: { now: () => Date.now() } }),
  });

describe('pushes that announce a version', () => {
  it('name the version and build number and link that build’s own install page', () => {
    const content = announce(version({}));
    expect(content.title).toBe('商城 新版本 2.1.0 (210)');
    expect(content.version?.downloadUrl).toBe(`${base}/package/shop?id=9`);
    const card = JSON.stringify(larkWebhookBody(content));
    expect(card).toContain('**版本**：2.1.0 (210) · Android');
    expect(card).toContain(`[安装此版本](${base}/package/shop?id=9)`);
    const news = wecomBody(content);
    expect(news).toMatchObject({
      msgtype: 'news',
      news: { articles: [{ title: '商城 2.1.0 (210)', url: `${base}/package/shop?id=9` }] },
    });
    expect(wecomMarkdown(content).markdown.content).toContain(`[安装此版本](${base}/package/shop?id=9)`);
  });

  it('call a web build, which has no version of its own, 第 N 版 as its page does (not index.html)', () => {
    const content = announce(version({ native_package_type: 'web', app_version: null, build: null }));
    expect(content.title).toBe('商城 新版本 第 3 版');
    expect(JSON.stringify(larkWebhookBody(content))).toContain('**版本**：第 3 版 · WEB');
  });
});
