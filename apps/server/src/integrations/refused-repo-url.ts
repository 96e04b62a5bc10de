/** The repository kinds whose addresses the server checks before it runs git or svn on them. */
export type RepoUrlKind = 'git' | 'svn';

const accepted: Record<RepoUrlKind, { label: string; remote: string[] }> = {
  git: { label: '仓库地址', remote: ['https://', 'http://', 'ssh://', 'git@主机:路径'] },
  svn: { label: 'SVN 地址', remote: ['https://', 'http://', 'svn://', 'svn+ssh://'] },
};

/** `a、b 或 c` */
function listed(items: string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join('、')} 或 ${items.at(-1)}` : (items[0] ?? '');
}

/**
 * Why an address was refused, for the person who typed it. The accepted forms list file:// only where this server
 * allows it; a file:// address on a server that does not is told as that, with how an admin switches it on.
 */
export function refusedRepoUrlMessage(kind: RepoUrlKind, url: string, allowFile: boolean): string {
  const { label, remote } = accepted[kind];
  if (!allowFile && /^file:/i.test(url.trim())) {
    return `本服务器未开启 file:// 仓库（服务器本机上的仓库）：请改用 ${listed(remote)} 地址；确需读取本机仓库时，请管理员按 docs/configuration.md 设置 ALLOW_FILE_REPOSITORIES=true 后重启服务`;
  }
  return `${label}不合法：仅支持 ${listed(allowFile ? [...remote, 'file://'] : remote)} 地址`;
}
