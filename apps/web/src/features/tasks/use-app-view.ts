import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchTaskView, saveTaskView } from '../../api/tasks.api.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { toast } from '../../app/feedback.ts';
import { tasksText as t } from './tasks.strings.ts';

export type AppViewMode = 'workflow' | 'task';

const storageKey = (appId: number) => `release.appView.${appId}`;

function readStoredMode(appId: number | null): AppViewMode {
  if (appId === null) return 'workflow';
  try {
    return window.localStorage.getItem(storageKey(appId)) === 'task' ? 'task' : 'workflow';
  } catch {
    return 'workflow';
  }
}

/**
 * SPEC §2: apps an admin has given the task view switch between the workflow view and the task view;
 * the last choice per app is remembered in this browser.
 */
export function useAppView(appId: number | null) {
  const queryClient = useQueryClient();
  const setting = useQuery({
    queryKey: queryKeys.taskView(appId ?? 0),
    queryFn: ({ signal }) => fetchTaskView(appId ?? 0, signal),
    enabled: appId !== null,
  });
  const [choice, setChoice] = useState<{ appId: number | null; mode: AppViewMode }>(() => ({
    appId,
    mode: readStoredMode(appId),
  }));
  const mode = choice.appId === appId ? choice.mode : readStoredMode(appId);
  const isEnabled = setting.data?.taskViewEnabled ?? false;

  const toggle = useMutation({
    mutationFn: (enabled: boolean) => saveTaskView(appId ?? 0, enabled),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.taskView(saved.appId), saved);
      toast.success(t.saved);
      if (saved.taskViewEnabled) choose('task');
    },
  });

  function choose(next: AppViewMode): void {
    setChoice({ appId, mode: next });
    if (appId === null) return;
    try {
      window.localStorage.setItem(storageKey(appId), next);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  }

  return {
    setting: setting.data ?? null,
    isEnabled,
    mode: isEnabled ? mode : ('workflow' as AppViewMode),
    choose,
    setEnabled: (enabled: boolean) => toggle.mutate(enabled),
    isSaving: toggle.isPending,
  };
}
export type AppViewState = ReturnType<typeof useAppView>;
