import {
  changedVersionLabel,
  platformMessageNames,
  SENT_AUTHOR_MAX,
  SENT_NO_AUTHOR,
  SENT_SUBJECT_MAX,
  SHORT_CHANGES_MAX_ENTRIES,
  type ChangeEntry,
  type VersionChanges,
} from '@release/contract';
import {
  clip,
  describeCommit,
  shortId,
  versionLabel,
  type MessageChanges,
  type MessageCommit,
  type MessageContent,
  type MessageVersion,
} from './message-content.ts';
import type { CommitRow, MessagingRepository, VersionRow } from './messaging.repository.ts';
import { mediaKeyOf, type MediaLinks } from '../../http/media-links.ts';

type AppRow = NonNullable<Awaited<ReturnType<MessagingRepository['app']>>>;

function absolute(url: string | null, base: string | null): string | null {
  if (!url) return null;
  if (/^https?:\/\//i.test(url)) return url;
  return base && url.startsWith('/') ? `${base}${url}` : null;
}

export interface ComposeInput {
  app: AppRow;
  workflow: { id: number; tab_name: string; content_type: string } | null;
  branch?: string | null;
  version: VersionRow | null;
  commits: CommitRow[];
  totalCommits: number;
  /** PUBLIC_URL or the request's own base; links are left out without one. */
  baseUrl: string | null;
  /** Signs a stored icon for the chat (WeCom loads news pictures from the link: no session there). */
  mediaLinks: MediaLinks;
  /** A version's changes since the build before it (issue 19), listed by its announcement. */
  changes?: VersionChanges | null;
}

/** The /commit page of an update item here (items of polled repositories, svn and packages have no page of their own). */
function itemUrl(baseUrl: string | null, workflowId: number | null, commitId: string): string | null {
  return baseUrl && workflowId
    ? `${baseUrl}/commit?commitId=${encodeURIComponent(commitId)}&workflowId=${workflowId}`
    : null;
}

/** A line of a push: the commit-type label read from the message when the list shows one (`typed`), texts cut. */
function messageCommit(
  c: { commitId: string; message: string; author: string; time: number; url: string | null },
  typed: boolean | 'package',
): MessageCommit {
  const described = describeCommit(c.message, typed === 'package');
  const { typeLabel, subject } = typed ? described : { typeLabel: null, subject: c.message };
  return {
    shortId: shortId(c.commitId),
    typeLabel,
    subject: clip(subject, SENT_SUBJECT_MAX),
    author: clip(c.author || SENT_NO_AUTHOR, SENT_AUTHOR_MAX),
    time: c.time,
    url: c.url,
  };
}

/**
 * A version's changes for its announcement: per workflow (the snapshots bound to it last) the newest
 * SHORT_CHANGES_MAX_ENTRIES, repository commits with the list's type labels; the full list is the console's 变更.
 */
function messageChanges(
  changes: VersionChanges,
  app: ComposeInput['app'],
  baseUrl: string | null,
): MessageChanges | null {
  if (!changes.base) return null;
  const entries = (list: ChangeEntry[], workflowId: number | null, typed: boolean) =>
    list.slice(0, SHORT_CHANGES_MAX_ENTRIES).map((e) =>
      messageCommit(
        {
          commitId: e.commitId,
          message: e.message,
          author: e.author,
          time: e.commitTime,
          url: e.itemId === null ? null : itemUrl(baseUrl, workflowId, e.commitId),
        },
        typed,
      ),
    );
  const groups = changes.workflows
    .filter((w) => w.total > 0)
    .map((w) => ({
      tabName: clip(w.tabName, 64),
      total: w.total,
      entries: entries(w.entries, w.workflowId, w.contentType === 'default'),
    }));
  if (changes.snapshots.length > 0)
    groups.push({
      tabName: '绑定的快照',
      total: changes.snapshots.length,
      entries: entries(changes.snapshots, null, false),
    });
  if (groups.length === 0) return null;
  return {
    since: clip(changedVersionLabel(changes.base), 90),
    total: groups.reduce((sum, g) => sum + g.total, 0),
    groups,
    url: baseUrl ? `${baseUrl}/home/app/${encodeURIComponent(app.path)}?changes=${changes.version.id}` : null,
  };
}

/** The app icon as a chat loads it: our media signed for a month on the base, another site's picture as it is. */
function iconLink(icon: string | null, baseUrl: string | null, links: MediaLinks): string | null {
  if (!mediaKeyOf(icon)) return absolute(icon, baseUrl);
  return baseUrl ? links.signed(icon, baseUrl, 'push') : null;
}

/** Rows in, message content out: the texts cut to display lengths, links made absolute. */
export function composeContent(input: ComposeInput): MessageContent {
  const { app, workflow, baseUrl } = input;
  const appName = clip(app.app_name, 64);
  const isPackage = workflow?.content_type === 'package';
  let version: MessageVersion | null = null;
  if (input.version) {
    const v = input.version;
    version = {
      platform:
        platformMessageNames[v.native_package_type as keyof typeof platformMessageNames] ?? v.native_package_type,
      appVersion: v.app_version ? clip(v.app_version, 40) : null,
      build: v.build ? clip(v.build, 40) : null,
      indexNo: v.index_no,
      description: clip(v.description.trim(), 300),
      uploader: v.uploader ? clip(v.uploader, 32) : null,
      downloadUrl: baseUrl ? `${baseUrl}/package/${encodeURIComponent(app.path)}?id=${v.id}` : null,
      alerts: (v.package_alerts ?? []).map((a) => clip(a, 120)),
    };
  }
  // An item without a web page of its own (a polled repository, svn, a package) links to its /commit page here.
  const commits = input.commits.map((c) =>
    messageCommit(
      {
        commitId: c.commit_id,
        message: c.commit_message,
        author: c.remark,
        time: c.commit_time,
        url: absolute(c.source_url, null) ?? itemUrl(baseUrl, workflow?.id ?? null, c.commit_id),
      },
      isPackage ? 'package' : true,
    ),
  );
  const tab = workflow ? clip(workflow.tab_name, 64) : null;
  const title = commits.length
    ? `${appName}${tab ? ` · ${tab}` : ''} 更新日志${version ? `（${versionLabel(version)}）` : ''}`
    : `${appName} 新版本 ${version ? versionLabel(version) : ''}`.trim();
  return {
    title,
    appName,
    iconUrl: iconLink(app.app_icon, baseUrl, input.mediaLinks),
    workflowName: tab,
    branch: input.branch ? clip(input.branch.replace(/^refs\/heads\//, ''), 64) : null,
    version,
    commits,
    totalCommits: Math.max(input.totalCommits, commits.length),
    moreUrl: baseUrl
      ? `${baseUrl}/home/app/${encodeURIComponent(app.path)}${workflow ? `?workflowId=${workflow.id}` : ''}`
      : null,
    changes: input.changes ? messageChanges(input.changes, app, baseUrl) : null,
  };
}

/** What a tester's feedback bug tells the app's group robot (issue 20). */
export interface FeedbackNews {
  summary: string;
  text: string;
  device: string;
  sender: string;
}

/** A feedback bug's message: the build it is about, what the tester wrote (cut for a chat), and where to see it. */
export function composeFeedback(
  input: Pick<ComposeInput, 'app' | 'version' | 'baseUrl' | 'mediaLinks'>,
  news: FeedbackNews,
): MessageContent {
  const content = composeContent({ ...input, workflow: null, commits: [], totalCommits: 0 });
  return {
    ...content,
    // The package's size alerts belong to its announcement, not to a tester's feedback on it.
    version: content.version ? { ...content.version, alerts: [] } : null,
    title: `${content.appName} 收到测试反馈${content.version ? `（${versionLabel(content.version)}）` : ''}`,
    feedback: {
      summary: clip(news.summary, 100),
      text: clip(news.text, 500),
      device: clip(news.device, 130),
      sender: clip(news.sender, 32),
      url: content.moreUrl,
    },
  };
}
