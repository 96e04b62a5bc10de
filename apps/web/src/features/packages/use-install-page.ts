import { useCallback, useEffect, useRef, useState } from 'react';
import { InstallMessages, ResultCode, type InstallPage } from '@release/contract';
import { fetchInstallPage } from './install.api.ts';

export type InstallState =
  | { status: 'loading' }
  | { status: 'locked'; error: string | null; answeredAt: number }
  | { status: 'ready'; page: InstallPage }
  | { status: 'missing'; message: string }
  | { status: 'failed'; message: string };

/** The install page's data: tries the kept token first, then asks for the install password. */
export function useInstallPage(path: string, versionId: number | undefined) {
  const [state, setState] = useState<InstallState>({ status: 'loading' });
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
      if (answer.ok) setState({ status: 'ready', page: answer.page });
      else if (answer.code === ResultCode.notFound) setState({ status: 'missing', message: answer.message });
      else if (answer.code === ResultCode.badRequest || answer.code === ResultCode.tooManyRequests) {
        // Without a password yet, "请输入安装密码" is the form itself, not an error; a pass the changed password ended is said.
        const quiet = password === undefined && answer.message === InstallMessages.passwordRequired;
        setState({ status: 'locked', error: quiet ? null : answer.message, answeredAt: Date.now() });
      } else setState({ status: 'failed', message: answer.message });
    },
    [path, versionId],
  );

  useEffect(() => {
    setState({ status: 'loading' });
    void load();
    return () => controller.current?.abort();
  }, [load]);

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
