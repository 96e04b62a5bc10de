import { createHmac } from 'node:crypto';
import type { WebhookRequest } from '../webhook-types.ts';

/** Realistic deliveries, shaped like the samples of contracts/git-apple.md sections A–C. */

export const ZEROS = '0000000000000000000000000000000000000000';
export const SHA = {
  before: '3f1c2a9d0b7e4c5a6f8e9d0c1b2a3f4e5d6c7b8a',
  first: '5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9a8b7c6d',
  second: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b',
};

type Json = Record<string, unknown>;

export function gitlabPushPayload(overrides: Json = {}): Json {
  return {
    object_kind: 'push',
    event_name: 'push',
    before: SHA.before,
    after: SHA.second,
    ref: 'refs/heads/release/2.4',
    ref_protected: true,
    checkout_sha: SHA.second,
    message: null,
    user_id: 41,
    user_name: 'Mira Quell',
    user_username: 'mquell',
    user_email: '',
    user_avatar: 'https://git.corp.test/uploads/-/system/user/avatar/41/avatar.png',
    project_id: 77,
    project: {
      id: 77,
      name: 'ios-app',
      description: '',
      web_url: 'https://git.corp.test/mobile/ios-app',
      avatar_url: null,
      git_ssh_url: 'git@git.corp.test:mobile/ios-app.git',
      git_http_url: 'https://git.corp.test/mobile/ios-app.git',
      namespace: 'mobile',
      visibility_level: 0,
      path_with_namespace: 'mobile/ios-app',
      default_branch: 'main',
    },
    commits: [
      {
        id: SHA.first,
        message: 'Bump build number\n',
        title: 'Bump build number',
        timestamp: '2024-05-02T09:12:44+02:00',
        url: `https://git.corp.test/mobile/ios-app/-/commit/${SHA.first}`,
        author: { name: 'Mira Quell', email: '[REDACTED]' },
        added: [],
        modified: ['Info.plist'],
        removed: [],
      },
      {
        id: SHA.second,
        message: '修复启动崩溃\n\nRefs #88\n',
        title: '修复启动崩溃',
        timestamp: '2024-05-02T09:20:01+02:00',
        url: `https://git.corp.test/mobile/ios-app/-/commit/${SHA.second}`,
        author: { name: 'Ola Berg', email: 'ola@corp.test' },
        added: ['Sources/Guard.swift'],
        modified: ['Sources/App.swift'],
        removed: [],
      },
    ],
    total_commits_count: 2,
    push_options: {},
    repository: {
      name: 'ios-app',
      url: 'git@git.corp.test:mobile/ios-app.git',
      description: '',
      homepage: 'https://git.corp.test/mobile/ios-app',
      git_http_url: 'https://git.corp.test/mobile/ios-app.git',
      git_ssh_url: 'git@git.corp.test:mobile/ios-app.git',
      visibility_level: 0,
    },
    ...overrides,
  };
}

function hostCommit(id: string, message: string, timestamp: string, web: string): Json {
  const person = { name: 'Ola Berg', email: 'ola@acme.test', username: 'olaberg' };
  return {
    id,
    tree_id: 'aa11bb22cc33dd44ee55ff6600112233445566aa',
    distinct: true,
    message,
    timestamp,
    url: `${web}/commit/${id}`,
    author: person,
    committer: { name: 'GitHub', email: 'noreply@github.com', username: 'web-flow' },
    verification: null,
    added: ['Sources/Sync.swift'],
    removed: [],
    modified: ['Package.swift'],
  };
}

export function githubPushPayload(overrides: Json = {}): Json {
  const web = 'https://github.com/acme/ios-app';
  const commits = [
    hostCommit(SHA.first, 'Add device sync\n\nCloses #12', '2024-05-02T11:10:00+02:00', web),
    hostCommit(SHA.second, '同步修复', '2024-05-02T11:20:00+02:00', web),
  ];
  return {
    ref: 'refs/heads/main',
    before: SHA.before,
    after: SHA.second,
    repository: {
      id: 81234567,
      name: 'ios-app',
      full_name: 'acme/ios-app',
      private: true,
      owner: { name: 'acme', login: 'acme', id: 5012 },
      html_url: web,
      clone_url: `${web}.git`,
      ssh_url: 'git@github.com:acme/ios-app.git',
      default_branch: 'main',
      master_branch: 'main',
      created_at: 1672531200,
      pushed_at: 1714641600,
    },
    pusher: { name: 'olaberg', email: 'ola@acme.test' },
    sender: { login: 'olaberg', id: 99001, type: 'User' },
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    compare: `${web}/compare/1b2c3d4e5f60...c0ffee12ab34`,
    commits,
    head_commit: commits[1],
    ...overrides,
  };
}

export function githubPingPayload(): Json {
  return {
    zen: 'Design for failure.',
    hook_id: 4711,
    hook: {
      type: 'Repository',
      id: 4711,
      name: 'web',
      active: true,
      events: ['push'],
      config: { content_type: 'json', insecure_ssl: '0', url: 'https://release.corp.test/hook' },
    },
    repository: {
      id: 81234567,
      name: 'ios-app',
      full_name: 'acme/ios-app',
      html_url: 'https://github.com/acme/ios-app',
    },
    sender: { login: 'olaberg', id: 99001 },
  };
}

/** Gitea lists commits newest first and truncates them to FEED_MAX_COMMIT_NUM (5). */
export function giteaPushPayload(overrides: Json = {}): Json {
  const web = 'https://gitea.corp.test/mobile/ios-app';
  const commits = [
    hostCommit(SHA.second, 'Second change\n', '2024-05-02T11:20:00+02:00', web),
    hostCommit(SHA.first, 'First change\n', '2024-05-02T11:10:00+02:00', web),
  ];
  return {
    ref: 'refs/heads/main',
    before: SHA.before,
    after: SHA.second,
    compare_url: `${web}/compare/${SHA.before}...${SHA.second}`,
    commits,
    total_commits: 2,
    head_commit: commits[0],
    repository: {
      id: 12,
      name: 'ios-app',
      full_name: 'mobile/ios-app',
      private: true,
      html_url: web,
      clone_url: `${web}.git`,
      default_branch: 'main',
    },
    pusher: { id: 7, login: 'ola', username: 'ola', email: 'ola@corp.test' },
    sender: { id: 7, login: 'ola', username: 'ola' },
    ...overrides,
  };
}

export function giteaDeletePayload(ref: string, refType: 'branch' | 'tag'): Json {
  return {
    ref,
    ref_type: refType,
    pusher_type: 'user',
    repository: { id: 12, full_name: 'mobile/ios-app' },
    sender: { id: 7, login: 'ola' },
  };
}

export function hmacHex(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/** Gitea sends its body pretty-printed with a 2-space indent. */
export function prettyJson(payload: Json): string {
  return JSON.stringify(payload, null, 2);
}

export function request(body: string, headers: Record<string, string>): WebhookRequest {
  return { headers, rawBody: Buffer.from(body, 'utf8') };
}
