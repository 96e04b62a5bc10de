import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { InstallPage } from '@release/contract';
import { InstallMessages, ResultCode } from '@release/contract/install-page';
import type { InstallBoot } from './boot.ts';
import { fetchInstallPage, readInstallToken, readSessionToken } from './install.api.ts';

export type InstallState =
  | { status: 'loading' }
  | { status: 'locked'; error: string | null; answeredAt: number }
  | { status: 'ready'; page: InstallPage }
  | { status: 'missing'; message: string }
  | { status: 'failed'; message: string };

/** What can be shown before any call: the server's word on the link, and whether this browser holds a pass or a sign-in. */
function firstState(path: string, boot: InstallBoot | null): InstallState {
  if (boot?.link === 'missing' || boot?.link === 'closed')
    return { status: 'missing', message: boot.message ?? InstallMessages.appMissing };
  if (boot?.link === 'password' && !readInstallToken(path) && !readSessionToken())
    return { status: 'locked', error: null, answeredAt: 0 };
  return { status: 'loading' };
}

/** The install page's data: the kept pass or sign-in first, then the install password. */
export function useInstallPage(path: string, versionId: number | undefined, boot: InstallBoot | null) {
  const [state, setState] = useState<InstallState>(() => firstState(path, boot));
  const [isUnlocking, setIsUnlocking] = useState(false);
  const controller = useRef<AbortController | null>(null);

  const load = useCallback(
    async (password?: string): Promise<void> => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      let answer;
      try {
        answer = await fetchInstallPage(path, { password, id: versionId }, abort.signal);
      } catch {
        return; // Replaced by a newer request, or the page was left.
      }
      if (answer.ok) setState({ status: 'ready', page: answer.data });
      else if (answer.code === ResultCode.notFound) setState({ status: 'missing', message: answer.message });
      else if (answer.code === ResultCode.badRequest || answer.code === ResultCode.tooManyRequests) {
        // Without a password yet, 请输入安装密码 is the form itself, not an error; a pass the changed password ended is said.
        const quiet = password === undefined && answer.message === InstallMessages.passwordRequired;
        setState({ status: 'locked', error: quiet ? null : answer.message, answeredAt: Date.now() });
      } else setState({ status: 'failed', message: answer.message });
    },
    [path, versionId],
  );

  useEffect(() => {
    if (firstState(path, boot).status === 'loading') void load();
    return () => controller.current?.abort();
  }, [load, path, boot]);

  const unlock = async (password: string): Promise<void> => {
    setIsUnlocking(true);
    try {
      await load(password);
    } finally {
      setIsUnlocking(false);
    }
  };

  return { state, isUnlocking, unlock, reload: () => void load() };
}
