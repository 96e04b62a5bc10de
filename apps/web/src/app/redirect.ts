import { RoutePath } from '@release/contract';

const REDIRECT_KEY = 'redirectedFrom';

/** Where a user without a valid session is sent (SPEC §4, §8). */
export const LOGIN_AUTO_PATH = `${RoutePath.login}?auto_login=1`;
export const HOME_APP_PATH = RoutePath.app;

/** Keeps the route the user came from, except /403 and the login page itself (SPEC §2 Login). */
export function rememberRedirect(pathWithSearch: string): void {
  const pathname = pathWithSearch.split('?')[0] ?? '';
  if (pathname === RoutePath.forbidden || pathname === RoutePath.login || pathname === '/') return;
  sessionStorage.setItem(REDIRECT_KEY, pathWithSearch);
}

/** The page to open after login: the remembered route, or /home/app. */
export function takeRedirect(): string {
  const stored = sessionStorage.getItem(REDIRECT_KEY);
  sessionStorage.removeItem(REDIRECT_KEY);
  // Only same-site paths: "//host" would leave the site.
  if (stored?.startsWith('/') && !stored.startsWith('//')) return stored;
  return HOME_APP_PATH;
}
