import type { LarkFakeOptions } from './lark/lark-fake.ts';
import type { WecomFakeOptions } from './wecom/wecom-fake.ts';

/**
 * The fixed demo world of `npm run fakes`: stable ids, so the printed env vars and bookmarked URLs keep
 * working across restarts. Mobiles let an admin pre-bind 张三 by phone (users page → 手机号 13800000001).
 */
export const DEMO_LARK: LarkFakeOptions = {
  app: {
    appId: 'cli_a1b2c3d4e5f60001',
    appSecret: 'demoLarkAppSecret0000000000000001',
    verificationToken: 'demoVerificationToken00000000001',
    tenantKey: '2f3e4d5c6b7a8901',
  },
  users: [
    {
      openId: 'ou_demo00000000000000000000000001',
      name: '张三',
      enName: 'Zhang San',
      mobile: '+8613800000001',
      email: 'zhangsan@example.com',
    },
    { openId: 'ou_demo00000000000000000000000002', name: '李四', enName: 'Li Si', mobile: '+8613800000002' },
    { openId: 'ou_demo00000000000000000000000003', name: '王五', enName: 'Wang Wu' },
  ],
  chats: [{ chatId: 'oc_demo0000000000000000000000001', name: '发布测试群' }],
  bots: [
    { token: 'demo-bot-0000-0000-0000-000000000001', name: '测试群机器人', chatId: 'oc_demo0000000000000000000000001' },
    {
      token: 'demo-bot-0000-0000-0000-000000000002',
      name: '发布群机器人（签名）',
      secret: 'demoBotSigningSecret01',
      chatId: 'oc_demo0000000000000000000000002',
    },
  ],
  wikiSpaces: [{ space_id: '7000000000000000001', name: '发布文档', description: '版本发布流程与记录' }],
  wikiNodes: [
    { space_id: '7000000000000000001', node_token: 'wikcnDemo0000000000000001', title: '发布流程', obj_type: 'docx' },
    {
      space_id: '7000000000000000001',
      node_token: 'wikcnDemo0000000000000002',
      title: '版本记录',
      obj_type: 'bitable',
      parent_node_token: 'wikcnDemo0000000000000001',
    },
  ],
};

export const DEMO_WECOM: WecomFakeOptions = {
  corp: {
    corpId: 'ww0123456789abcdef',
    name: '演示企业',
    agentId: '1000002',
    secret: 'demoWecomAgentSecret0000000000000000000001',
  },
  members: [
    { userId: 'zhangsan', name: '张三', department: [1], position: '客户端开发' },
    { userId: 'lisi', name: '李四', department: [1], position: '测试' },
  ],
  robots: [
    { key: 'demo-wecom-robot-dev-0000000000000001', name: '开发群机器人' },
    { key: 'demo-wecom-robot-prod-000000000000001', name: '正式群机器人' },
  ],
};
