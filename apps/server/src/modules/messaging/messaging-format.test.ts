import { describe, expect, it } from 'vitest';
import { parseRobotUrl } from '../../integrations/robot-destination.ts';
import { larkWebhookBody } from './lark-card.ts';
import { fitCount, shareAmong, type MessageContent } from './message-content.ts';
import { larkBotSign } from './senders.ts';
import { wecomMarkdown } from './wecom-message.ts';

const hosts = { larkOpenBaseUrl: 'https://open.feishu.cn', wecomBaseUrl: 'https://qyapi.weixin.qq.com' };

function content(commits: number, subject = '修复了一个问题'): MessageContent {
  return {
    title: '星际战舰 · 客户端 更新日志',
    appName: '星际战舰',
    iconUrl: null,
    workflowName: '客户端',
    branch: 'main',
    version: null,
    commits: Array.from({ length: commits }, (_, i) => ({
      shortId: `abc${String(i).padStart(4, '0')}`,
      typeLabel: 'Bug修改',
      subject: `${subject} ${i}`,
      author: '张三',
      time: i,
      url: null,
    })),
    totalCommits: commits,
    moreUrl: 'https://release.example.com/home/app/star?workflowId=1',
  };
}

describe('robot addresses', () => {
  it('accepts only the Lark hook path and the WeCom send path on the configured origins, rebuilt and masked', () => {
    expect(parseRobotUrl('https://open.feishu.cn/open-apis/bot/v2/hook/0a1b2c3d-4e5f', hosts)).toEqual({
      kind: 'lark-bot',
      url: 'https://open.feishu.cn/open-apis/bot/v2/hook/0a1b2c3d-4e5f',
      masked: 'https://open.feishu.cn/open-apis/bot/v2/hook/0a1b****4e5f',
    });
    expect(parseRobotUrl('https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx', hosts)?.kind).toBe(
      'wecom-robot',
    );
    for (const refused of [
      'https://open.feishu.cn.evil.com/open-apis/bot/v2/hook/x',
      'http://open.feishu.cn/open-apis/bot/v2/hook/x',
      'https://open.feishu.cn:8443/open-apis/bot/v2/hook/x',
      'https://open.feishu.cn/open-apis/bot/v2/hook/x/../../im/v1/messages',
      'https://open.feishu.cn/open-apis/bot/v2/hook/x?y=1',
      'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=a&key=b',
      'https://169.254.169.254/cgi-bin/webhook/send?key=a',
      'not a url',
    ]) {
      expect([refused, parseRobotUrl(refused, hosts)]).toEqual([refused, null]);
    }
  });
});

describe('message formats', () => {
  it('names items pushed by other systems by their subject, with a 详情 link instead of an id', () => {
    const pushed = {
      ...content(0),
      commits: [
        {
          shortId: null,
          typeLabel: '新增/变更',
          subject: '第一章关卡',
          author: '策划小李',
          time: 1,
          url: 'https://release.example.com/commit?id=9',
        },
      ],
      totalCommits: 1,
    };
    const lark = JSON.stringify(larkWebhookBody(pushed));
    expect(lark).toContain('- 【新增/变更】第一章关卡 [详情](https://release.example.com/commit?id=9) — 策划小李');
    expect(lark).not.toContain('null');
    const wecom = wecomMarkdown(pushed).markdown.content;
    expect(wecom).toContain(
      '> <font color="info">新增/变更</font> 第一章关卡 [详情](https://release.example.com/commit?id=9) <font color="comment">策划小李</font>',
    );
  });
  it('signs a Lark bot request as the contract’s test vector', () => {
    expect(larkBotSign(1599360473, 'demo')).toBe('l1N0gAcBjdwBvGm1xMjOF0XSyaLRpR7tuO5dHfhAYc8=');
  });

  it('finds the largest count that fits', () => {
    expect(fitCount(100, 50, (n) => n)).toBe(50);
    expect(fitCount(10, 50, (n) => n)).toBe(10);
    expect(fitCount(10, 5, () => 6)).toBe(0);
  });

  it('cuts long lists to the caps and says how many more there are', () => {
    const lark = larkWebhookBody(content(2000));
    expect(Buffer.byteLength(JSON.stringify(lark))).toBeLessThanOrEqual(20_000);
    const markdown = JSON.stringify(lark.card.body.elements);
    const shown = (markdown.match(/\\n- /g) ?? []).length;
    expect(markdown).toContain(`…还有 ${2000 - shown} 条`);
    const wecom = wecomMarkdown(content(2000, '很长的说明'.repeat(20)));
    expect(Buffer.byteLength(wecom.markdown.content)).toBeLessThanOrEqual(4096);
    expect(wecom.markdown.content).toContain('…还有');
    expect(wecomMarkdown(content(3)).markdown.content).not.toContain('还有');
  });
});

describe('a version announcement cut to a cap', () => {
  it('shares the lines it has room for among the workflows, each its newest first, never more than it has', () => {
    expect(shareAmong([5, 1, 3], 6)).toEqual([3, 1, 2]);
    expect(shareAmong([5, 1, 3], 2)).toEqual([1, 1, 0]);
    expect(shareAmong([2, 1], 10)).toEqual([2, 1]);
  });
});
