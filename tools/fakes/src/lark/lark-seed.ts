import { randomChars, randomHex } from '../shared/ids.ts';
import type { BotHook, DriveFile, DriveFileType, LarkChat, WikiNode, WikiSpace } from './lark-state.ts';

/** Builders that fill realistic defaults for whatever a test leaves out. */
export type LarkChatSeed = Partial<LarkChat>;
export type BotSeed = Partial<BotHook>;
export type DriveFileSeed = Partial<DriveFile> & { token: string };
export type WikiSpaceSeed = Partial<WikiSpace> & { name: string };
export type WikiNodeSeed = Partial<WikiNode> & { space_id: string; title: string };

export function buildChat(seed: LarkChatSeed = {}): LarkChat {
  return {
    chatId: seed.chatId ?? `oc_${randomHex(16)}`,
    name: seed.name ?? '测试群',
    botIsMember: seed.botIsMember ?? true,
    dissolved: seed.dissolved ?? false,
  };
}

export function buildBot(seed: BotSeed = {}): BotHook {
  return {
    token: seed.token ?? crypto.randomUUID(),
    name: seed.name ?? '发布通知机器人',
    secret: seed.secret,
    keywords: seed.keywords,
    chatId: seed.chatId ?? `oc_${randomHex(16)}`,
  };
}

export function buildDriveFile(seed: DriveFileSeed): DriveFile {
  return { token: seed.token, type: seed.type ?? 'docx', appCanManage: seed.appCanManage ?? true };
}

export function buildWikiSpace(seed: WikiSpaceSeed): WikiSpace {
  return {
    space_id: seed.space_id ?? String(7_000_000_000_000_000_000n + BigInt(Math.floor(Math.random() * 1e15))),
    name: seed.name,
    description: seed.description ?? '',
    space_type: seed.space_type ?? 'team',
    visibility: seed.visibility ?? 'private',
    open_sharing: seed.open_sharing ?? 'closed',
    botIsMember: seed.botIsMember ?? true,
    members: seed.members ?? [],
  };
}

const OBJ_PREFIX: Record<WikiNode['obj_type'], string> = {
  doc: 'doccn',
  docx: 'doxcn',
  sheet: 'shtcn',
  bitable: 'bascn',
  mindnote: 'bmncn',
  file: 'boxcn',
  slides: 'sldcn',
};

export function buildWikiNode(seed: WikiNodeSeed, nowSeconds: number): WikiNode {
  const objType = seed.obj_type ?? 'docx';
  const nodeToken = seed.node_token ?? `wikcn${randomChars(22)}`;
  const creator = seed.creator ?? 'ou_fake_creator';
  const time = String(nowSeconds);
  return {
    space_id: seed.space_id,
    node_token: nodeToken,
    // A base stored in a wiki uses obj_token as its 27-character app_token.
    obj_token: seed.obj_token ?? `${OBJ_PREFIX[objType]}${randomChars(22)}`,
    obj_type: objType,
    parent_node_token: seed.parent_node_token ?? '',
    node_type: seed.node_type ?? 'origin',
    origin_node_token: seed.origin_node_token ?? nodeToken,
    origin_space_id: seed.origin_space_id ?? seed.space_id,
    title: seed.title,
    obj_create_time: seed.obj_create_time ?? time,
    obj_edit_time: seed.obj_edit_time ?? time,
    node_create_time: seed.node_create_time ?? time,
    creator,
    owner: seed.owner ?? creator,
    node_creator: seed.node_creator ?? creator,
  };
}

/** Drive file type of a wiki node's object, so it can be subscribed to. */
export function driveTypeOf(objType: WikiNode['obj_type']): DriveFileType {
  return objType === 'mindnote' ? 'file' : objType;
}
