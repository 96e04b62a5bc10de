import { controlRoute, requireString, type ControlInput } from '../../shared/control.ts';
import { baseControlRoutes } from '../../shared/fake-base.ts';
import type { RouteDef } from '../../shared/http-server.ts';
import type { RateLimit } from '../../shared/rate-limiter.ts';
import type { PushEventInput } from '../event-pusher.ts';
import { workSnapshot } from '../lark-work-hooks.ts';
import type { JsapiSignatureCheck, LarkFake } from '../lark-fake.ts';
import type { BotSeed, DriveFileSeed, LarkChatSeed, WikiNodeSeed, WikiSpaceSeed } from '../lark-seed.ts';
import type { LarkAppSeed, LarkUserSeed, LoginChoice } from '../lark-state.ts';
import type { EmitDriveEventInput } from './drive-events.routes.ts';

/** The whole observable state, for out-of-process tests and the demo. */
function snapshot(fake: LarkFake): Record<string, unknown> {
  const s = fake.state;
  return {
    now: fake.clock.now(),
    app: fake.app,
    apps: [...s.apps.values()],
    users: [...s.users.values()],
    chats: [...s.chats.values()],
    bots: [...s.bots.values()],
    driveFiles: [...s.driveFiles.values()],
    wikiSpaces: s.wikiSpaces,
    wikiNodes: s.wikiNodes,
    botMessages: s.botMessages,
    botRejections: s.botRejections,
    imMessages: s.imMessages,
    imImages: s.imImages,
    subscriptions: s.subscriptions,
    deliveries: s.deliveries,
    jsTicketCalls: s.jsTicketCalls,
    ...workSnapshot(fake.tasks, fake.bitable),
  };
}

// The control body is the seed itself; the programmatic API checks what it needs.
const as = <T>(input: ControlInput): T => input as T;

/** `/__fake/...` routes mirroring the programmatic API (see README). */
export function larkControlRoutes(fake: LarkFake): RouteDef[] {
  return [
    controlRoute('GET', '/state', () => snapshot(fake)),
    ...baseControlRoutes(fake),
    controlRoute('POST', '/apps', (input) => fake.addApp(as<LarkAppSeed>(input))),
    controlRoute('POST', '/users', (input) => {
      requireString(input, 'name');
      return fake.addUser(as<LarkUserSeed>(input));
    }),
    controlRoute('POST', '/chats', (input) => fake.addChat(as<LarkChatSeed>(input))),
    controlRoute('POST', '/bots', (input) => fake.addBot(as<BotSeed>(input))),
    controlRoute('POST', '/drive/files', (input) => {
      requireString(input, 'token');
      return fake.addDriveFile(as<DriveFileSeed>(input));
    }),
    controlRoute('POST', '/wiki/spaces', (input) => {
      requireString(input, 'name');
      return fake.addWikiSpace(as<WikiSpaceSeed>(input));
    }),
    controlRoute('POST', '/wiki/nodes', (input) => {
      requireString(input, 'space_id');
      requireString(input, 'title');
      return fake.addWikiNode(as<WikiNodeSeed>(input));
    }),
    controlRoute('POST', '/login/next', (input) => {
      const choice: LoginChoice = input.deny === true ? { deny: true } : { openId: requireString(input, 'openId') };
      fake.setNextLogin(choice);
    }),
    controlRoute('POST', '/codes', (input) => ({
      code: fake.mintCode({ ...as<{ openId: string }>(input), openId: requireString(input, 'openId') }),
    })),
    controlRoute('POST', '/tokens/tenant', (input) => ({
      token: fake.issueTenantToken(typeof input.appId === 'string' ? input.appId : undefined),
    })),
    controlRoute('POST', '/tokens/user', (input) =>
      fake.issueUserToken({ ...as<{ openId: string }>(input), openId: requireString(input, 'openId') }),
    ),
    controlRoute('POST', '/tokens/expire', (input) => ({ found: fake.expireToken(requireString(input, 'token')) })),
    controlRoute('POST', '/tokens/revoke', (input) => ({ found: fake.revokeToken(requireString(input, 'token')) })),
    controlRoute('POST', '/rate-limits', (input) =>
      fake.setRateLimit(requireString(input, 'route'), (input.limit as RateLimit | null | undefined) ?? null),
    ),
    controlRoute('POST', '/events/push', (input) => {
      requireString(input, 'eventType');
      return fake.pushEvent(as<PushEventInput>(input));
    }),
    controlRoute('POST', '/events/drive', (input) => {
      requireString(input, 'eventType');
      requireString(input, 'fileToken');
      return fake.emitDriveEvent(as<EmitDriveEventInput>(input));
    }),
    controlRoute('POST', '/events/verify-url', (input) =>
      fake.verifyEventUrl(requireString(input, 'url'), typeof input.appId === 'string' ? input.appId : undefined),
    ),
    controlRoute('POST', '/jsapi/verify', (input) => fake.verifyJsapiSignature(as<JsapiSignatureCheck>(input))),
  ];
}
