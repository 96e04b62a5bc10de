/**
 * `npm run fakes`: both fakes on fixed loopback ports with the demo world of demo-seed.ts, and the env vars
 * that point `npm run dev` at them. Ctrl-C stops them.
 */
import { parseArgs } from 'node:util';
import { startAppleFake } from './apple/apple-fake.ts';
import { DEMO_LARK, DEMO_WECOM } from './demo-seed.ts';
import { startLarkFake } from './lark/lark-fake.ts';
import { startWecomFake } from './wecom/wecom-fake.ts';

const { values } = parseArgs({
  options: {
    'lark-port': { type: 'string', default: '3901' },
    'wecom-port': { type: 'string', default: '3902' },
    'apple-port': { type: 'string', default: '3903' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log('usage: npm run fakes -- [--lark-port 3901] [--wecom-port 3902] [--apple-port 3903]');
  process.exit(0);
}

const lark = await startLarkFake({ ...DEMO_LARK, port: Number(values['lark-port']) });
const wecom = await startWecomFake({ ...DEMO_WECOM, port: Number(values['wecom-port']) });
const apple = await startAppleFake({
  port: Number(values['apple-port']),
  devices: [{ name: '测试 iPhone', udid: '00008110-000A1B2C3D4E5F60', model: 'iPhone 15' }],
  bundleIds: [{ identifier: 'com.example.demo', name: 'Demo' }],
});
const appleKey = apple.addKey();

const env = [
  `LARK_APP_ID=${lark.app.appId}`,
  `LARK_APP_SECRET=${lark.app.appSecret}`,
  `LARK_OPEN_BASE_URL=${lark.url}`,
  `LARK_ACCOUNTS_BASE_URL=${lark.url}`,
  `LARK_PASSPORT_BASE_URL=${lark.url}`,
  `LARK_VERIFICATION_TOKEN=${lark.app.verificationToken}`,
  `WECOM_BASE_URL=${wecom.url}`,
  `WECOM_LOGIN_BASE_URL=${wecom.url}`,
  `WECOM_CORP_ID=${wecom.corp.corpId}`,
  `WECOM_AGENT_ID=${wecom.corp.agentId}`,
  `WECOM_SECRET=${wecom.corp.secret}`,
  `APPLE_API_BASE_URL=${apple.url}`,
  'NO_PROXY=127.0.0.1,localhost',
];

const lines = [
  `Lark fake  ${lark.url}  (open, accounts and passport hosts)`,
  `WeCom fake ${wecom.url}  (qyapi and SSO login hosts)`,
  `Apple fake ${apple.url}  (App Store Connect API, team ${apple.state.teamId})`,
  '',
  'Start the server against them:',
  `  ${env.join(' \\\n  ')} \\\n  npm run dev`,
  '',
  'Then sign in at the server (http://127.0.0.1:8080 once the web app is built: npm run build -w apps/web).',
  'With the Vite dev server instead, add PUBLIC_URL=http://localhost:5173 so Lark and WeCom send the browser back there.',
  '',
  'Demo data:',
  `  Lark users: ${[...lark.state.users.values()].map((u) => `${u.name} (${u.mobile ?? 'no mobile'})`).join(', ')}`,
  `  Lark bot webhooks: ${[...lark.state.bots.values()].map((b) => `${lark.url}/open-apis/bot/v2/hook/${b.token}${b.secret ? ` (secret ${b.secret})` : ''}`).join('\n                     ')}`,
  `  WeCom members: ${[...wecom.state.members.values()].map((m) => `${m.name} (${m.userId})`).join(', ')}`,
  `  WeCom robots: ${[...wecom.state.robots.values()].map((r) => wecom.robotUrl(r.key)).join('\n                ')}`,
  `  Apple API key (设置 → 苹果账号): issuer ${appleKey.issuerId}, key id ${appleKey.keyId}, .p8:`,
  appleKey.p8.trim(),
  '',
  `What they received: GET ${lark.url}/__fake/state, ${wecom.url}/__fake/state and ${apple.url}/__fake/state (see tools/fakes/README.md).`,
  'Ctrl-C stops them.',
];
console.log(lines.join('\n'));

const stop = async () => {
  await Promise.all([lark.close(), wecom.close(), apple.close()]);
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
