import { AppError } from '../../http/app-error.ts';
import { classifyGitRemote } from '../../integrations/git/remote-url.ts';
import { refusedRepoUrlMessage } from '../../integrations/refused-repo-url.ts';
import { isAllowedSvnUrl } from '../../integrations/svn/svn-command.ts';

/**
 * A git or svn workflow's address must be one the sync can read, or it is refused with the reason on the modal's
 * 仓库地址 field (`data.field` = repoPath): a workflow that could never sync is not saved as 创建成功.
 */
export function assertRepoPath(workflow: { repo_type: string | null; repo_path: string | null }, allowFile: boolean): void {
  const url = workflow.repo_path ?? '';
  if (workflow.repo_type === 'git' && classifyGitRemote(url, { allowFile }) === null) {
    throw AppError.badRequest(refusedRepoUrlMessage('git', url, allowFile), 'repoPath');
  }
  if (workflow.repo_type === 'svn' && !isAllowedSvnUrl(url, { allowFile })) {
    throw AppError.badRequest(refusedRepoUrlMessage('svn', url, allowFile), 'repoPath');
  }
}
