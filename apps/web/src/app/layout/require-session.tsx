import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { REDIRECT_TO_LOGIN_DELAY_MS } from '@release/contract';
import { fetchCurrentUser } from '../../api/auth.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { zh } from '../../locales/zh-CN.ts';
import { toast } from '../feedback.ts';
import { HOME_APP_PATH, LOGIN_AUTO_PATH, rememberRedirect } from '../redirect.ts';
import { isSessionUsable, updateSessionUser, useSession } from '../session.store.ts';

/** Confirms the stored token with the server once per start; a revoked token answers 401. */
function useServerSessionCheck(enabled: boolean): void {
  const { data } = useQuery({
    queryKey: queryKeys.me,
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    enabled,
    staleTime: Infinity,
  });
  useEffect(() => {
    if (data) updateSessionUser(data);
  }, [data]);
}

/** Renders protected pages only with a valid session (SPEC §4); otherwise goes to login after 200 ms. */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const isValid = isSessionUsable(session);
  const isFirstCheck = useRef(true);
  useServerSessionCheck(isValid);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of validity matters, not every location change
  useEffect(() => {
    const isStart = isFirstCheck.current;
    isFirstCheck.current = false;
    if (isValid) return;
    if (isStart) {
      rememberRedirect(location.pathname + location.search);
      toast.warning(zh.session.expired);
    }
    const timer = window.setTimeout(() => navigate(LOGIN_AUTO_PATH, { replace: true }), REDIRECT_TO_LOGIN_DELAY_MS);
    return () => window.clearTimeout(timer);
    // Only a change of validity matters here, not every location change.
  }, [isValid]);

  return isValid ? <Outlet /> : null;
}

/** "/": a valid session goes to /home/app, otherwise to the login page without a message. */
export function RootRedirect() {
  const session = useSession();
  return <Navigate to={isSessionUsable(session) ? HOME_APP_PATH : '/login'} replace />;
}
