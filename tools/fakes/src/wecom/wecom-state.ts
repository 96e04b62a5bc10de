import { randomChars, randomHex } from '../shared/ids.ts';

/** Everything the WeCom fake knows: the seeded corp, its members and robots, issued credentials and logs. */
export interface WecomAgent {
  agentId: string;
  secret: string;
  /** Trusted redirect domains (host, or host:port); the SSO page refuses others with 50001. */
  trustedDomains: string[];
}

export interface WecomCorp {
  corpId: string;
  name: string;
  agents: WecomAgent[];
}

export interface WecomMember {
  userId: string;
  name: string;
  department: number[];
  position: string;
  /** Not a member of the corp: getuserinfo answers an openid instead of a userid. */
  external: boolean;
  openId: string;
}

export interface WecomRobot {
  key: string;
  name: string;
  /** 93004: the robot was switched off in the group. */
  disabled: boolean;
}

export interface WecomToken {
  token: string;
  corpId: string;
  agentId: string;
  expiresAt: number;
  revoked: boolean;
}

export interface WecomCode {
  code: string;
  corpId: string;
  agentId: string;
  userId: string;
  expiresAt: number;
  used: boolean;
}

export interface WecomMedia {
  mediaId: string;
  key: string;
  type: 'file' | 'voice';
  filename: string;
  size: number;
  expiresAt: number;
}

/** One accepted robot message: the body as received, with news titles/descriptions cut to their caps. */
export interface RobotMessage {
  key: string;
  msgtype: string;
  body: Record<string, unknown>;
  at: number;
}

/** Why a robot request was refused (the real errmsg is terse; this helps a failing test). */
export interface RobotRejection {
  key: string;
  errcode: number;
  reason: string;
  at: number;
}

export class WecomState {
  corps = new Map<string, WecomCorp>();
  members = new Map<string, WecomMember>();
  robots = new Map<string, WecomRobot>();

  tokens: WecomToken[] = [];
  codes = new Map<string, WecomCode>();
  media = new Map<string, WecomMedia>();
  /** Who signs in at the next SSO page visit; queued, one per visit. */
  nextLogins: string[] = [];

  robotMessages: RobotMessage[] = [];
  robotRejections: RobotRejection[] = [];

  /** Forgets everything issued or recorded; seeded corps, members and robots stay. */
  resetRuntime(): void {
    this.tokens = [];
    this.codes.clear();
    this.media.clear();
    this.nextLogins = [];
    this.robotMessages = [];
    this.robotRejections = [];
  }

  /** The agent whose secret this is, within the corp. */
  findAgent(corpId: string, secret: string): WecomAgent | undefined {
    return this.corps.get(corpId)?.agents.find((a) => a.secret === secret);
  }
}

export interface WecomCorpSeed {
  corpId?: string;
  name?: string;
  agentId?: string;
  secret?: string;
  trustedDomains?: string[];
}
export type WecomMemberSeed = Partial<WecomMember> & { name: string };
export type WecomRobotSeed = Partial<WecomRobot>;

export function buildCorp(seed: WecomCorpSeed = {}): WecomCorp {
  return {
    corpId: seed.corpId ?? `ww${randomHex(8)}`,
    name: seed.name ?? '测试企业',
    agents: [
      {
        agentId: seed.agentId ?? String(1_000_000 + Math.floor(Math.random() * 999_999)),
        secret: seed.secret ?? randomChars(43, true),
        trustedDomains: seed.trustedDomains ?? ['127.0.0.1', 'localhost'],
      },
    ],
  };
}

export function buildMember(seed: WecomMemberSeed): WecomMember {
  return {
    userId: seed.userId ?? `user${randomHex(4)}`,
    name: seed.name,
    department: seed.department ?? [1],
    position: seed.position ?? '',
    external: seed.external ?? false,
    openId: seed.openId ?? `o${randomChars(27, true)}`,
  };
}

export function buildRobot(seed: WecomRobotSeed = {}): WecomRobot {
  return {
    key: seed.key ?? crypto.randomUUID(),
    name: seed.name ?? '发布通知机器人',
    disabled: seed.disabled ?? false,
  };
}
