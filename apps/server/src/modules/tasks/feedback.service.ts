import {
  FEEDBACK_DEVICE_MAX,
  FEEDBACK_TEXT_MAX,
  FeedbackMessages,
  platformNames,
  type FeedbackSent,
  type FeedbackSettings,
  type MessageInfo,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { deviceOfAgent } from '../../lib/device-of-agent.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { MembersLookup } from '../apps/apps-directory.ts';
import type { AttemptLimiter } from '../auth/attempt-limiter.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { InstallService } from '../install/install.service.ts';
import type { VersionRecord } from '../versions/versions.repository.ts';
import { taskColumns, type StoredTaskFile } from './task-columns.ts';
import type { TasksRepository } from './tasks.repository.ts';
import type { TasksService } from './tasks.service.ts';

const SUMMARY_MAX = 60;

export interface FeedbackDeps {
  tasks: TasksService;
  repo: TasksRepository;
  install: Pick<InstallService, 'visitorTarget'>;
  policy: AppsPolicy;
  members: Pick<MembersLookup, 'listUsers'>;
  guard: AttemptLimiter;
  clock: Clock;
  /** The bell: a notice per user (notifications). */
  bell: (rows: Array<{ userId: number; appId: number; messageInfo: MessageInfo; now: number }>) => Promise<void>;
  /** The app's test group robot (messaging); never fails the feedback. */
  announce: (news: FeedbackAnnouncement, baseUrl: string | null) => Promise<unknown>;
}

/** What the group robot is told of a new feedback bug. */
export interface FeedbackAnnouncement {
  appId: number;
  versionId: number;
  requestedBy: number | null;
  summary: string;
  text: string;
  device: string;
  sender: string;
}

/** Who sends, from where: the form's fields and the request's own facts. */
export interface FeedbackVisit {
  token?: string;
  viewer: AuthUser | null;
  ip: string;
  userAgent?: string;
  /** The base of links in the robot's message. */
  baseUrl: string | null;
}

/** A form that passed the checks: what `send` makes the bug of. */
export interface AdmittedFeedback {
  url: string;
  text: string;
  app: { id: number; name: string };
  version: VersionRecord;
  settings: FeedbackSettings;
}

const field = (fields: Record<string, string>, name: string, max: number) => (fields[name] ?? '').trim().slice(0, max);

function buildName(v: VersionRecord): string {
  const name = v.app_version
    ? [v.app_version, v.build && `(${v.build})`].filter(Boolean).join(' ')
    : `第 ${v.index_no} 版`;
  return `${platformNames[v.native_package_type]} ${name}`;
}

/**
 * Tester feedback (issue 20): from the install page or the console, on one build, it becomes a bug of the app's
 * tracker through the tracker's own create path (history, Lark sync), assigned per the app's setting, and the bell
 * tells the receivers (or, with none set, the app's editors).
 */
export function createFeedbackService(deps: FeedbackDeps) {
  const { repo, policy, clock } = deps;

  async function settingsOf(appId: number): Promise<FeedbackSettings> {
    const row = await repo.settings(appId);
    return {
      appId,
      enabled: row ? Number(row.feedback_enabled) === 1 : true,
      assigneeIds: row ? taskColumns.feedbackAssigneeIds.decode(row.feedback_assignee_ids) : [],
    };
  }

  return {
    async settings(user: AuthUser, appId: number): Promise<FeedbackSettings> {
      await policy.assertCanView(user, appId);
      return settingsOf(appId);
    },

    async saveSettings(user: AuthUser, body: FeedbackSettings): Promise<FeedbackSettings> {
      await policy.assertCanEdit(user, body.appId);
      const ids = [...new Set(body.assigneeIds)];
      const names = await repo.userNames(ids);
      const unknown = ids.find((id) => !names.has(id));
      if (unknown !== undefined) throw AppError.badRequest(`用户 ${unknown} 不存在`);
      await repo.saveFeedbackSettings(body.appId, body.enabled, ids, clock.now());
      return settingsOf(body.appId);
    },

    /**
     * Checks a form before any file is stored: the visitor may open the link, the build is the link's app's, the app
     * takes feedback, and this address has not sent too much on this link lately. Answers what `send` needs.
     */
    async admit(fields: Record<string, string>, visit: FeedbackVisit): Promise<AdmittedFeedback> {
      const url = field(fields, 'url', 64);
      const versionId = Number(field(fields, 'versionId', 20));
      if (!url || !Number.isSafeInteger(versionId) || versionId < 1) throw AppError.badRequest('参数错误');
      const text = (fields.text ?? '').trim();
      if (!text) throw AppError.badRequest(FeedbackMessages.textRequired);
      if (text.length > FEEDBACK_TEXT_MAX) throw AppError.badRequest(FeedbackMessages.textTooLong);
      const target = await deps.install.visitorTarget(url, versionId, visit);
      if (!target.version) throw AppError.notFound(FeedbackMessages.versionMissing);
      const settings = await settingsOf(target.app.id);
      if (!settings.enabled) throw AppError.noPermission(FeedbackMessages.disabled);
      // Each sending stays counted: ten per link from one address, fifty from one address, in 15 minutes.
      const admission = await deps.guard.admit('feedback', url, visit.ip);
      if (!admission.allowed)
        throw AppError.tooManyRequests(
          FeedbackMessages.tooMany(Math.max(1, Math.ceil(admission.retryAfterMs / 60_000))),
        );
      return { url, text, app: target.app, version: target.version, settings };
    },

    async send(
      admitted: AdmittedFeedback,
      fields: Record<string, string>,
      files: StoredTaskFile[],
      visit: FeedbackVisit,
    ): Promise<FeedbackSent> {
      const { text, app, version, settings } = admitted;
      const agent = deviceOfAgent(visit.userAgent);
      const model = field(fields, 'deviceModel', FEEDBACK_DEVICE_MAX) || agent.model || agent.family;
      const os = field(fields, 'osVersion', FEEDBACK_DEVICE_MAX) || agent.os || '未知';
      const firstLine = text.split('\n')[0]?.trim() ?? '';
      const summary = `[测试反馈] ${firstLine.length > SUMMARY_MAX ? `${firstLine.slice(0, SUMMARY_MAX)}…` : firstLine}`;
      const sender = visit.viewer ? visit.viewer.username : '匿名测试者（安装密码）';
      // The console's 安装包 list sends `from=console`; anything else came from the install page.
      const source = fields.from === 'console' ? '控制台安装包列表' : `/package/${admitted.url}?id=${version.id}`;
      const description = [
        text,
        '',
        `版本：${buildName(version)}（编号 ${version.id}）`,
        `设备：${model} · ${os}`,
        `提交人：${sender}`,
        `来源：${source}`,
      ].join('\n');
      const record = await deps.tasks.createFeedbackBug({
        appId: app.id,
        versionId: version.id,
        summary,
        description,
        assigneeIds: settings.assigneeIds,
        creatorId: visit.viewer?.userId ?? null,
        files,
      });
      const receivers = settings.assigneeIds.length
        ? settings.assigneeIds
        : (await deps.members.listUsers(app.id)).filter((m) => m.permit === 'edit').map((m) => Number(m.userId));
      const now = clock.now();
      const messageInfo = {
        username: sender,
        appId: app.id,
        appName: app.name,
        description: FeedbackMessages.notice(summary),
      };
      await deps.bell(
        receivers
          .filter((id) => id !== visit.viewer?.userId)
          .map((userId) => ({ userId, appId: app.id, messageInfo, now })),
      );
      const rest = text.split('\n').slice(1).join('\n').trim();
      await deps.announce(
        {
          appId: app.id,
          versionId: version.id,
          requestedBy: visit.viewer?.userId ?? null,
          summary,
          text: rest,
          device: `${model} · ${os}`,
          sender,
        },
        visit.baseUrl,
      );
      return { guid: record.guid, message: FeedbackMessages.sent };
    },
  };
}
export type FeedbackService = ReturnType<typeof createFeedbackService>;
