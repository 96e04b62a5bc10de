/** Loopback fakes of the Lark Open Platform, WeCom and the App Store Connect API (see README.md). */
export { FakeClock, type FakeClockOptions } from './shared/clock.ts';
export type { ErrorInjection, HeldAnswer, RecordedRequest } from './shared/http-server.ts';
export type { RateLimit } from './shared/rate-limiter.ts';
export { buildMultipart } from './shared/multipart.ts';

export { startLarkFake, type JsapiSignatureCheck, type LarkFake, type LarkFakeOptions } from './lark/lark-fake.ts';
export type {
  BotHook,
  BotMessage,
  BotRejection,
  EventDelivery,
  ImMessage,
  LarkApp,
  LarkAppSeed,
  LarkUser,
  LarkUserSeed,
  LoginChoice,
} from './lark/lark-state.ts';
export type { PushEventInput } from './lark/event-pusher.ts';
export type { LarkWorkHooks } from './lark/lark-work-hooks.ts';
export type {
  FakeCustomField,
  FakeTask,
  FakeTaskAttachment,
  FakeTaskComment,
  FakeTasklist,
  TaskMember,
  TaskStore,
} from './lark/task-state.ts';
export type { BitableApp, BitableField, BitableRecord, BitableStore, BitableTable } from './lark/bitable-state.ts';
export { decryptEvent, encryptEvent, signBotRequest, signEvent, signJsapi } from './lark/lark-crypto.ts';
export { LOGIN_HINT_DENY, LOGIN_HINT_USER } from './lark/routes/oauth-authorize.routes.ts';

export { startWecomFake, type WecomAppCredentials, type WecomFake, type WecomFakeOptions } from './wecom/wecom-fake.ts';
export type {
  RobotMessage,
  RobotRejection,
  WecomCorpSeed,
  WecomMember,
  WecomMemberSeed,
  WecomRobot,
  WecomRobotSeed,
} from './wecom/wecom-state.ts';
export { LOGIN_HINT_USER as WECOM_LOGIN_HINT_USER } from './wecom/routes/sso.routes.ts';

export { startAppleFake, type AppleApiKey, type AppleFake, type AppleFakeOptions } from './apple/apple-fake.ts';
export { ASC_AUDIENCE, generateAscKey, signAscToken, verifyAscToken } from './apple/apple-jwt.ts';
export { readProfilePlist } from './apple/apple-profile.ts';
export type { AscBundleId, AscCertificate, AscDevice, AscProfile, DeviceSeed } from './apple/apple-state.ts';
