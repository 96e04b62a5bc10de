import { platformMessageNames, SENT_AUTHOR_MAX, SENT_NO_AUTHOR, SENT_SUBJECT_MAX } from '@release/contract';
import {
  clip,
  describeCommit,
  shortId,
  versionLabel,
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
  const detailUrl = (commitId: string) =>
    baseUrl && workflow ? `${baseUrl}/commit?commitId=${encodeURIComponent(commitId)}&workflowId=${workflow.id}` : null;
  const commits = input.commits.map((c) => {
    const { typeLabel, subject } = describeCommit(c.commit_message, isPackage);
    return {
      shortId: shortId(c.commit_id),
      typeLabel,
      subject: clip(subject, SENT_SUBJECT_MAX),
      author: clip(c.remark || SENT_NO_AUTHOR, SENT_AUTHOR_MAX),
      time: c.commit_time,
      url: absolute(c.source_url, null) ?? detailUrl(c.commit_id),
    };
  });
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
