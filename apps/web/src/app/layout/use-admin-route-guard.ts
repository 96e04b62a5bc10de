import { useEffect } from 'react';
import { useBlocker, useLocation, useNavigate } from 'react-router-dom';
import { isAdminOnlyPath } from '@release/contract';
import { zh } from '../../locales/zh-CN.ts';
import { toast } from '../feedback.ts';
import { HOME_APP_PATH } from '../redirect.ts';
import { useIsAdmin } from '../session.store.ts';

/**
 * SPEC §5 route guard: below level 100, paths with setting, udid or category are refused.
 * An in-app navigation is cancelled (the user stays); a direct load goes to /home/app.
 * Returns whether the current path may render.
 */
export function useAdminRouteGuard(): boolean {
  const isAdmin = useIsAdmin();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !isAdmin && isAdminOnlyPath(nextLocation.pathname) && currentLocation.pathname !== nextLocation.pathname,
  );
  const isRefusedHere = !isAdmin && isAdminOnlyPath(pathname);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    toast.warning(zh.session.noPermission);
    blocker.reset();
  }, [blocker]);

  useEffect(() => {
    if (!isRefusedHere) return;
    toast.warning(zh.session.noPermission);
    void navigate(HOME_APP_PATH, { replace: true });
  }, [isRefusedHere, navigate]);

  return !isRefusedHere;
}
