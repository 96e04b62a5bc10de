import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { refusedRepoUrlMessage } from '../refused-repo-url.ts';

export type RemoteKind = 'https' | 'http' | 'ssh' | 'scp' | 'file';

export interface RemoteUrlOptions {
  /** Accept file:// remotes (repositories on the server's own disk). Default true. */
  allowFile?: boolean;
}

const MAX_URL_LENGTH = 2048;
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])$/;
const USER = /^[A-Za-z0-9._~%+-]+$/;
const SCP_LIKE = /^([^@/:]+)@([^/:]+):(.+)$/;

/**
 * Classifies a remote the system git may fetch, or returns null when it is refused. Accepted: https://, http://
 * (a GitLab on a LAN), ssh://, `user@host:path` (scp-like ssh) and, when allowed, file://. Everything else — git://,
 * `ext::`/`fd::` transports, bare local paths, anything starting with `-` or containing whitespace or control
 * characters — is refused, so a stored repoPath can never smuggle an option or a command into git or ssh.
 */
export function classifyGitRemote(url: string, options: RemoteUrlOptions = {}): RemoteKind | null {
  if (url.length === 0 || url.length > MAX_URL_LENGTH || /[\s\x00-\x1f\x7f]/.test(url) || url.startsWith('-'))
    return null;
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
    case 'http':
      return isSafeHost(parsed.hostname) && isSafeUser(parsed.username) ? scheme : null;
    case 'ssh':
      return isSafeHost(parsed.hostname) &&
        isSafeUser(parsed.username) &&
        parsed.password === '' &&
        parsed.pathname.length > 1
        ? 'ssh'
        : null;
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

/** Hides the password or token of `https://user:token@host/...` (and `https://token@host/...`) in any text, git's messages included. */
export function redactSecrets(text: string): string {
  // A user name standing alone in an http(s) address is usually a token (`https://TOKEN@host/…`).
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)([^/@\s:]*):([^/@\s]*)@/gi, '$1$2:***@')
    .replace(/(https?:\/\/)([^/@\s:']+)@/gi, '$1***@');
}

/** A stable mirror directory for a remote under `baseDir`: one bare repository per distinct URL. */
export function mirrorDirFor(baseDir: string, remoteUrl: string): string {
  return join(baseDir, `${createHash('sha256').update(remoteUrl, 'utf8').digest('hex').slice(0, 32)}.git`);
}

const HTTP_CREDENTIALS = /^(https?:\/\/)([^/@\s:]*)(?::([^/@\s]*))?@/i;
/** What a hidden password or token reads as in an address shown back. */
export const HIDDEN_SECRET = '***';

/**
 * A repository address as shown back (API answers, the web, logs): the password of `https://user:pass@host/…` is
 * `***`, and so is a user name standing alone there (`https://TOKEN@host/…`, how tokens are often given). ssh and svn
 * user names stay: they are not secrets.
 */
export function redactRepoUrl(url: string): string {
  return url.replace(HTTP_CREDENTIALS, (_all, scheme: string, user: string, password: string | undefined) =>
    password === undefined ? `${scheme}${HIDDEN_SECRET}@` : `${scheme}${user}:${HIDDEN_SECRET}@`,
  );
}

/**
 * An address saved back as it was shown (`***` in place of the secret) keeps the stored secret, when scheme, user
 * and everything after the `@` up to the path's host are the same; anything else is taken as typed.
 */
export function restoreRepoSecret(submitted: string, stored: string | null): string {
  if (!stored) return submitted;
  const given = HTTP_CREDENTIALS.exec(submitted);
  const kept = HTTP_CREDENTIALS.exec(stored);
  if (!given || !kept) return submitted;
  const hostOf = (url: string, match: RegExpExecArray) => url.slice(match[0].length).split(/[/?#]/)[0]?.toLowerCase();
  if (given[1]?.toLowerCase() !== kept[1]?.toLowerCase() || hostOf(submitted, given) !== hostOf(stored, kept))
    return submitted;
  const rest = submitted.slice(given[0].length);
  if (given[3] === HIDDEN_SECRET && kept[3] !== undefined && given[2] === kept[2])
    return `${given[1]}${given[2]}:${kept[3]}@${rest}`;
  if (given[2] === HIDDEN_SECRET && given[3] === undefined && kept[3] === undefined)
    return `${given[1]}${kept[2]}@${rest}`;
  return submitted;
}
