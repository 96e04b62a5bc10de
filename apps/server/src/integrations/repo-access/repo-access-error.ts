/** Every address that cannot be reached says the same, so the answer tells nothing about what listens there. */
export const REPO_UNREACHABLE = '无法连接仓库地址，请检查地址和网络';
/** A host refused by the admin's list, or a private address not allowed there. */
export const REPO_HOST_REFUSED =
  '仓库地址的主机不在允许范围内：内网、本机地址需管理员在「设置 → 系统 → 仓库主机」中允许';

/** Why a repository host was not reached (before git or svn ran). `detail` is for the server log only. */
export class RepoAccessError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'refused_host',
    readonly detail = '',
  ) {
    super(reason === 'unreachable' ? REPO_UNREACHABLE : REPO_HOST_REFUSED);
    this.name = 'RepoAccessError';
  }
}

/** Limits of every git and svn run against a remote (REPO_*_TIMEOUT_SEC). */
export interface RepoTimeouts {
  /** Resolving the host and opening the connection (and its TLS handshake or greeting). */
  connectMs: number;
  /** A transfer that stays silent (below 1 KB/s) this long is given up. */
  idleMs: number;
  /** One git or svn command as a whole: then the command and its children are killed. */
  commandMs: number;
}

export const DEFAULT_REPO_TIMEOUTS: RepoTimeouts = { connectMs: 15_000, idleMs: 60_000, commandMs: 10 * 60_000 };

/** The address a checked host is reached at, so git connects where the check looked (no second DNS answer). */
export interface PinnedHost {
  host: string;
  port: number;
  address: string;
}

/** What git and svn are told about the network side of one run. */
export interface RemoteLimits {
  timeouts: RepoTimeouts;
  pin?: PinnedHost;
}

/** A limit as the whole seconds git, svn and ssh take (at least 1). */
export function wholeSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
