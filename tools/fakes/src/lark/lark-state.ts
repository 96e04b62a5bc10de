import { randomChars, randomHex } from '../shared/ids.ts';

/** Everything the Lark fake knows: seeded entities, issued credentials and typed logs for assertions. */
export interface LarkApp {
  appId: string;
  appSecret: string;
  tenantKey: string;
  verificationToken: string;
  /** When set, pushed events are AES-encrypted and carry X-Lark-Signature. */
  encryptKey?: string;
  /** The app's "request URL" for event push. */
  eventUrl?: string;
  /** Redirect whitelist; an entry matches the redirect_uri itself or as a prefix. */
  redirectUris: string[];
  /** Scopes enabled for the app; undefined accepts any scope. */
  scopes?: string[];
  refreshEnabled: boolean;
  disabled: boolean;
  botEnabled: boolean;
}

export type LarkUserStatus = 'active' | 'resigned' | 'frozen' | 'unregistered';

export interface LarkUser {
  openId: string;
  unionId: string;
  userId: string;
  name: string;
  enName: string;
  email?: string;
  enterpriseEmail?: string;
  mobile?: string;
  employeeNo?: string;
  avatarUrl: string;
  status: LarkUserStatus;
  /** False puts the user outside the app's availability (20010, 230013). */
  canUseApp: boolean;
}

export interface LarkChat {
  chatId: string;
  name: string;
  botIsMember: boolean;
  dissolved: boolean;
}

export interface TenantToken {
  token: string;
  appId: string;
  issuedAt: number;
  expiresAt: number;
  revoked: boolean;
}

export interface UserToken {
  token: string;
  /** v2 = authen/v2/oauth/token (JWT-like), v1 = legacy oidc (u-…). */
  kind: 'v1' | 'v2';
  appId: string;
  openId: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

export interface RefreshToken {
  token: string;
  kind: 'v1' | 'v2';
  appId: string;
  openId: string;
  scopes: string[];
  /** When the user authorized; the refresh chain ends 365 days later. */
  grantAt: number;
  expiresAt: number;
  used: boolean;
  revoked: boolean;
  accessToken: string;
}

export interface AuthCode {
  code: string;
  appId: string;
  openId: string;
  /** null for codes from the in-client silent login (no redirect). */
  redirectUri: string | null;
  scopes: string[];
  codeChallenge?: string;
  codeChallengeMethod?: 'S256' | 'plain';
  expiresAt: number;
  used: boolean;
}

export type LoginChoice = { openId: string } | { deny: true };

export interface BotHook {
  token: string;
  name: string;
  secret?: string;
  keywords?: string[];
  chatId: string;
}

export interface BotMessage {
  botToken: string;
  msgType: string;
  content?: unknown;
  card?: unknown;
  /** True for the legacy `/bot/hook/:token` `{title,text}` form. */
  legacy: boolean;
  at: number;
}

/** Why a bot request was refused (the real msg is terse; this helps a failing test). */
export interface BotRejection {
  botToken: string;
  code: number;
  reason: string;
  at: number;
}

export interface ImMention {
  key: string;
  id: string;
  id_type: 'open_id';
  name: string;
  tenant_key: string;
}

export interface ImMessage {
  messageId: string;
  appId: string;
  chatId: string;
  receiveIdType: string | null;
  receiveId: string | null;
  msgType: string;
  /** The `content` JSON string as sent (after patches: the latest). */
  content: string;
  uuid?: string;
  rootId?: string;
  parentId?: string;
  createTime: number;
  updateTime: number;
  updated: boolean;
  mentions: ImMention[];
}

export interface ImImage {
  imageKey: string;
  appId: string;
  imageType: 'message' | 'avatar';
  /** Told by content: jpeg, png, webp, gif, tiff, bmp or ico. */
  format: string;
  size: number;
  /** Hex SHA-256 of the uploaded bytes, so a test can tell which image a key stands for. */
  sha256: string;
  at: number;
}

export type DriveFileType = 'doc' | 'docx' | 'sheet' | 'bitable' | 'file' | 'folder' | 'slides';

export interface DriveFile {
  token: string;
  type: DriveFileType;
  /** False makes subscribe answer 1069603 (the app lacks manage rights). */
  appCanManage: boolean;
}

export interface DriveSubscription {
  appId: string;
  fileToken: string;
  fileType: DriveFileType;
  eventType?: string;
  at: number;
}

export interface WikiSpace {
  space_id: string;
  name: string;
  description: string;
  space_type: 'team' | 'person' | 'my_library';
  visibility: 'public' | 'private';
  open_sharing: 'open' | 'closed';
  /** Tenant tokens see only spaces the bot belongs to. */
  botIsMember: boolean;
  /** open_ids of members (user tokens see these spaces and public ones). */
  members: string[];
}

export interface WikiNode {
  space_id: string;
  node_token: string;
  obj_token: string;
  obj_type: 'doc' | 'sheet' | 'mindnote' | 'bitable' | 'file' | 'docx' | 'slides';
  parent_node_token: string;
  node_type: 'origin' | 'shortcut';
  origin_node_token: string;
  origin_space_id: string;
  title: string;
  obj_create_time: string;
  obj_edit_time: string;
  node_create_time: string;
  creator: string;
  owner: string;
  node_creator: string;
}

export interface DeliveryAttempt {
  at: number;
  /** HTTP status, or null when the connection failed or timed out. */
  status: number | null;
  error?: string;
  responseBody?: string;
}

export interface EventDelivery {
  id: number;
  url: string;
  eventType: string;
  eventId: string;
  /** The plaintext envelope (before encryption). */
  envelope: Record<string, unknown>;
  encrypted: boolean;
  attempts: DeliveryAttempt[];
  status: 'delivered' | 'retrying' | 'failed';
  /** Fake-clock time of the next retry while `status` is `retrying`. */
  nextRetryAt?: number;
}

export interface JsTicket {
  ticket: string;
  appId: string;
  expiresAt: number;
}

export class LarkState {
  apps = new Map<string, LarkApp>();
  users = new Map<string, LarkUser>();
  chats = new Map<string, LarkChat>();
  bots = new Map<string, BotHook>();
  driveFiles = new Map<string, DriveFile>();
  wikiSpaces: WikiSpace[] = [];
  wikiNodes: WikiNode[] = [];

  tenantTokens: TenantToken[] = [];
  userTokens = new Map<string, UserToken>();
  refreshTokens = new Map<string, RefreshToken>();
  codes = new Map<string, AuthCode>();
  nextLogins: LoginChoice[] = [];
  jsTickets: JsTicket[] = [];
  jsTicketCalls = 0;

  botMessages: BotMessage[] = [];
  botRejections: BotRejection[] = [];
  imMessages: ImMessage[] = [];
  imImages: ImImage[] = [];
  subscriptions: DriveSubscription[] = [];
  deliveries: EventDelivery[] = [];

  /** Forgets everything issued or recorded; seeded apps, users, chats, bots, files and wiki stay. */
  resetRuntime(): void {
    this.tenantTokens = [];
    this.userTokens.clear();
    this.refreshTokens.clear();
    this.codes.clear();
    this.nextLogins = [];
    this.jsTickets = [];
    this.jsTicketCalls = 0;
    this.botMessages = [];
    this.botRejections = [];
    this.imMessages = [];
    this.imImages = [];
    this.subscriptions = [];
    this.deliveries = [];
  }

  findUser(idType: string, id: string): LarkUser | undefined {
    for (const user of this.users.values()) {
      if (idType === 'open_id' && user.openId === id) return user;
      if (idType === 'union_id' && user.unionId === id) return user;
      if (idType === 'user_id' && user.userId === id) return user;
      if (idType === 'email' && (user.email === id || user.enterpriseEmail === id)) return user;
    }
    return undefined;
  }
}

export type LarkAppSeed = Partial<LarkApp>;
export type LarkUserSeed = Partial<LarkUser> & { name: string };

export function buildApp(seed: LarkAppSeed = {}): LarkApp {
  return {
    appId: seed.appId ?? `cli_${randomHex(8)}`,
    appSecret: seed.appSecret ?? randomChars(32),
    tenantKey: seed.tenantKey ?? randomHex(8),
    verificationToken: seed.verificationToken ?? randomChars(32),
    encryptKey: seed.encryptKey,
    eventUrl: seed.eventUrl,
    redirectUris: seed.redirectUris ?? ['http://127.0.0.1', 'http://localhost'],
    scopes: seed.scopes,
    refreshEnabled: seed.refreshEnabled ?? true,
    disabled: seed.disabled ?? false,
    botEnabled: seed.botEnabled ?? true,
  };
}

export function buildUser(seed: LarkUserSeed): LarkUser {
  const openId = seed.openId ?? `ou_${randomHex(16)}`;
  return {
    openId,
    unionId: seed.unionId ?? `on_${randomHex(16)}`,
    userId: seed.userId ?? randomHex(4),
    name: seed.name,
    enName: seed.enName ?? seed.name,
    email: seed.email,
    enterpriseEmail: seed.enterpriseEmail,
    mobile: seed.mobile,
    employeeNo: seed.employeeNo,
    avatarUrl: seed.avatarUrl ?? `http://127.0.0.1/fake-avatar/${openId}.png`,
    status: seed.status ?? 'active',
    canUseApp: seed.canUseApp ?? true,
  };
}
