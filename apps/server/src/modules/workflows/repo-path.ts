import { AppError } from '../../http/app-error.ts';
import { classifyGitRemote } from '../../integrations/git/remote-url.ts';
import { refusedRepoUrlMessage } from '../../integrations/refused-repo-url.ts';
import type { RepoHostGuard } from '../../integrations/repo-access/repo-host-guard.ts';
import { isAllowedSvnUrl } from '../../integrations/svn/svn-command.ts';

/**
 * A git or svn workflow's address must be one the sync can read, or it is refused with the reason on the modal's
 * 仓库地址 field (`data.field` = repoPath): a workflow that could never sync is not saved as 创建成功. The admin's host
 * rules are applied to what the address says (a literal private address, a denied name); the addresses a name
 * resolves to are checked each time the sync connects.
 */
export async function assertRepoPath(
  workflow: { repo_type: string | null; repo_path: string | null },
  allowFile: boolean,
  guard: RepoHostGuard,
): Promise<void> {
  const url = workflow.repo_path ?? '';
  if (workflow.repo_type === 'git' && classifyGitRemote(url, { allowFile }) === null) {
    throw AppError.badRequest(refusedRepoUrlMessage('git', url, allowFile), 'repoPath');
  }
  if (workflow.repo_type === 'svn' && !isAllowedSvnUrl(url, { allowFile })) {
    throw AppError.badRequest(refusedRepoUrlMessage('svn', url, allowFile), 'repoPath');
  }
  if (workflow.repo_type !== 'git' && workflow.repo_type !== 'svn') return;
  const refused = await guard.checkWritten(url);
  if (refused) throw AppError.badRequest(refused.message, 'repoPath');
}
