import { randomHex, uuid } from '../shared/ids.ts';

/** Task v2 in memory (contract §D): tasklists, tasks, custom fields, comments and attachments. */
export interface TaskActor {
  id: string;
  type: 'user' | 'app';
}

export interface TaskMember {
  /** Always an open_id (users) or app id inside the fake; shown in the caller's `user_id_type`. */
  id: string;
  type: 'user' | 'app' | 'chat';
  role: string;
}

export interface TaskTime {
  timestamp: string;
  is_all_day: boolean;
}

export interface FakeTasklist {
  guid: string;
  name: string;
  creator: TaskActor;
  owner: TaskActor;
  /** Editors and viewers (the owner is not repeated here). */
  members: TaskMember[];
  url: string;
  created_at: string;
  updated_at: string;
  deleted: boolean;
}

export type CustomFieldType = 'number' | 'datetime' | 'member' | 'single_select' | 'multi_select' | 'text';

export interface CustomFieldOption {
  guid: string;
  name: string;
  color_index: number;
  is_hidden: boolean;
}

export interface FakeCustomField {
  guid: string;
  name: string;
  type: CustomFieldType;
  /** Tasklists the field is attached to. */
  tasklists: string[];
  settings: Record<string, unknown>;
  options: CustomFieldOption[];
  creator: TaskActor;
  created_at: string;
  updated_at: string;
}

export interface CustomFieldValue {
  guid: string;
  number_value?: string;
  datetime_value?: string;
  member_value?: Array<{ id: string; type: 'user' }>;
  single_select_value?: string;
  multi_select_value?: string[];
  text_value?: string;
}

export interface FakeTask {
  guid: string;
  task_id: string;
  summary: string;
  description: string;
  start?: TaskTime;
  due?: TaskTime;
  completed_at: string;
  created_at: string;
  updated_at: string;
  creator: TaskActor;
  members: TaskMember[];
  tasklists: Array<{ tasklist_guid: string; section_guid: string }>;
  custom_fields: CustomFieldValue[];
  reminders: Array<{ id: string; relative_fire_minute: number }>;
  origin?: unknown;
  extra: string;
  repeat_rule: string;
  mode: number;
  is_milestone: boolean;
  url: string;
  deleted: boolean;
}

export interface FakeTaskComment {
  id: string;
  content: string;
  creator: TaskActor;
  reply_to_comment_id?: string;
  created_at: string;
  updated_at: string;
  resource_type: 'task';
  resource_id: string;
  deleted: boolean;
}

export interface FakeTaskAttachment {
  guid: string;
  file_token: string;
  name: string;
  size: number;
  data: Buffer;
  resource: { type: 'task'; id: string };
  uploader: TaskActor;
  uploaded_at: string;
  deleted: boolean;
  /** Download links handed out: each valid for 3 minutes and 3 downloads. */
  links: Map<string, { expiresAt: number; left: number }>;
}

/** A remembered answer to a create call carrying `client_token` (5 minutes, per caller). */
export interface RememberedCreate {
  at: number;
  guid: string;
}

export class TaskStore {
  tasklists = new Map<string, FakeTasklist>();
  tasks = new Map<string, FakeTask>();
  customFields = new Map<string, FakeCustomField>();
  comments = new Map<string, FakeTaskComment>();
  attachments = new Map<string, FakeTaskAttachment>();
  clientTokens = new Map<string, RememberedCreate>();
  private nextTaskNo = 1000;
  private nextCommentNo = 7_000_000_000_000_000_000n;

  newTaskId(): string {
    this.nextTaskNo += 1;
    return `t${this.nextTaskNo}`;
  }

  newCommentId(): string {
    this.nextCommentNo += BigInt(1 + Math.floor(Math.random() * 1000));
    return String(this.nextCommentNo);
  }

  newGuid(): string {
    return uuid();
  }

  newFileToken(): string {
    return `boxcn${randomHex(11)}`;
  }

  /** Live (not deleted) tasks of a tasklist, oldest first. */
  tasksOf(tasklistGuid: string): FakeTask[] {
    return [...this.tasks.values()].filter(
      (t) => !t.deleted && t.tasklists.some((l) => l.tasklist_guid === tasklistGuid),
    );
  }

  commentsOf(taskGuid: string): FakeTaskComment[] {
    return [...this.comments.values()].filter((c) => !c.deleted && c.resource_id === taskGuid);
  }

  reset(): void {
    this.tasklists.clear();
    this.tasks.clear();
    this.customFields.clear();
    this.comments.clear();
    this.attachments.clear();
    this.clientTokens.clear();
  }
}
