import { createHash } from 'node:crypto';
import { InstallMessages, type InstallPageQuery } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { UrlSigner } from '../../storage/url-signer.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AttemptLimiter } from '../auth/attempt-limiter.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { AppsLookup } from '../apps/apps-directory.ts';
import type { InstallAccessRepository } from './install-access.repository.ts';

const PAGE_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** An app as the install password gate sees it: its id and its stored (sealed) install password. */
type Gated = { id: number; password: string };

/** The install password gate: the remembered pass, who may see a link's page, and the app a link names. */
export function createInstallGate(deps: {
  apps: AppsLookup;
  access: InstallAccessRepository;
  policy: AppsPolicy;
  guard: AttemptLimiter;
  box: SecretBox;
  signer: UrlSigner;
  clock: Clock;
}) {
  const { apps, access, policy, guard, box, signer, clock } = deps;

  /**
   * What the remembered pass and the signed links are tied to: a digest of the current install password (never the
   * password itself), so changing the password ends every pass and link handed out before.
   */
  function passwordStamp(app: Gated): string {
    return createHash('sha256')
      .update(`install-password\n${box.open(app.password)}`)
      .digest('base64url');
  }
  function pageToken(app: Gated): string {
    const expires = clock.now() + PAGE_TOKEN_TTL_MS;
    return `${app.id}.${expires}.${signer.sign(['install-page', app.id, expires, passwordStamp(app)])}`;
  }
  /** valid; stale (this app's, unexpired, but not signed for the current password); or absent (none, expired, another app's). */
  function pageTokenState(token: string | undefined, app: Gated): 'valid' | 'stale' | 'absent' {
    const [id, expires, sig] = (token ?? '').split('.');
    if (Number(id) !== app.id || !(Number(expires) > clock.now()) || !sig) return 'absent';
    return signer.verify(['install-page', app.id, Number(expires), passwordStamp(app)], sig) ? 'valid' : 'stale';
  }
  const isPageTokenValid = (token: string | undefined, app: Gated): boolean => pageTokenState(token, app) === 'valid';

  /**
   * Who may see the page: a signed-in member of the app (view or edit) or an admin without the password; anyone else
   * with the remembered pass or the password (ten wrong ones from an address lock it for a while).
   */
  async function assertAllowed(
    app: Gated,
    query: InstallPageQuery,
    token: string | undefined,
    ip: string,
    viewer: AuthUser | null,
  ): Promise<'password' | 'member'> {
    if (viewer && (await policy.accessOf(viewer, app.id))) return 'member';
    const pass = pageTokenState(token, app);
    if (pass === 'valid') return 'password';
    if (!query.password)
      throw AppError.badRequest(pass === 'stale' ? InstallMessages.passwordChanged : InstallMessages.passwordRequired);
    // Counted (per app and address, and per address) before it is compared; a wrong one stays counted.
    const admission = await guard.admit('install', String(app.id), ip);
    if (!admission.allowed)
      throw AppError.tooManyRequests(
        InstallMessages.tooManyTries(Math.max(1, Math.ceil(admission.retryAfterMs / 60_000))),
      );
    if (box.open(app.password) !== query.password) throw AppError.badRequest(InstallMessages.passwordWrong);
    await admission.guess.succeeded();
    return 'password';
  }

  type AppRow = NonNullable<Awaited<ReturnType<AppsLookup['findByPath']>>>;
  /** The app a link names: by its path (password page), or by its public path while the password-free link is on. */
  async function appOfLink(url: string): Promise<{ app: AppRow; isPublic: boolean }> {
    const app = await apps.findByPath(url);
    if (app) return { app, isPublic: false };
    const open = await access.findByPublicPath(url);
    if (!open) throw AppError.notFound(InstallMessages.appMissing);
    if (open.public_install !== 1) throw AppError.notFound(InstallMessages.publicClosed);
    return { app: open, isPublic: true };
  }

  return { passwordStamp, pageToken, pageTokenState, isPageTokenValid, assertAllowed, appOfLink };
}
export type InstallGate = ReturnType<typeof createInstallGate>;
