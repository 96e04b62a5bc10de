import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { refusedRepoUrlMessage } from '../refused-repo-url.ts';

export type RemoteKind = 'https' | 'ssh' | 'scp' | 'file';

export interface RemoteUrlOptions {
  /** Accept file:// remotes (repositories on the server's own disk). Default true. */
  allowFile?: boolean;
}

const MAX_URL_LENGTH = 2048;
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])$/;
const USER = /^[A-Za-z0-9._~%+-]+$/;
const SCP_LIKE = /^([^@/:]+)@([^/:]+):(.+)$/;

/**
 * Classifies a remote the system git may fetch, or returns null when it is refused. Accepted: https://,
 * ssh://, `user@host:path` (scp-like ssh) and, when allowed, file://. Everything else — http://, git://,
 * `ext::`/`fd::` transports, bare local paths, anything starting with `-` or containing whitespace or control
 * characters — is refused, so a stored repoPath can never smuggle an option or a command into git or ssh.
 */
export function classifyGitRemote(url: string, options: RemoteUrlOptions = {}): RemoteKind | null {
  if (url.length === 0 || url.length > MAX_URL_LENGTH || /[\s\x00-\x1f\x7f]/.test(url) || url.startsWith('-')) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return classifyScpLike(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  switch (scheme) {
    case 'https':
      return isSafeHost(parsed.hostname) && isSafeUser(parsed.username) ? 'https' : null;
    case 'ssh':
      return isSafeHost(parsed.hostname) && isSafeUser(parsed.username) && parsed.password === '' && parsed.pathname.length > 1 ? 'ssh' : null;
    case 'file': {
      const localHost = parsed.hostname === '' || parsed.hostname === 'localhost';
      return options.allowFile !== false && localHost && parsed.pathname.length > 1 ? 'file' : null;
    }
    default:
      return null;
  }
}

/** Why classifyGitRemote refused `url`, in Chinese: file:// switched off on this server is said as such. */
export function refusedRemoteMessage(url: string, options: RemoteUrlOptions = {}): string {
  return refusedRepoUrlMessage('git', url, options.allowFile !== false);
}

function classifyScpLike(url: string): RemoteKind | null {
  const match = SCP_LIKE.exec(url);
  if (!match) return null;
  const [, user = '', host = '', path = ''] = match;
  return isSafeUser(user) && user !== '' && isSafeHost(host) && !path.startsWith('-') ? 'scp' : null;
}

function isSafeHost(host: string): boolean {
  return host.length > 0 && !host.startsWith('-') && HOST.test(host);
}

function isSafeUser(user: string): boolean {
  return user === '' || (!user.startsWith('-') && USER.test(user));
}

/** Hides the password or token of `https://user:token@host/...` in any text (URLs in git's messages included). */
export function redactSecrets(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)([^/@\s:]*):([^/@\s]*)@/gi, '$1$2:***@');
}

/** A stable mirror directory for a remote under `baseDir`: one bare repository per distinct URL. */
export function mirrorDirFor(baseDir: string, remoteUrl: string): string {
  return join(baseDir, `${createHash('sha256').update(remoteUrl, 'utf8').digest('hex').slice(0, 32)}.git`);
}
