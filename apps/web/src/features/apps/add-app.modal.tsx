import { useState, type ReactElement } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { lazyModal } from '../../app/components/lazy-part.tsx';
import type { SavedApp } from './app-form/app-form.modal.tsx';
import { setCurrentAppId } from './current-app.store.ts';
import { refreshAfterAppSave } from './use-app-detail.ts';
import { appPagePath } from './use-choose-app.ts';

/** The app form (添加应用, 应用设置), loaded when first opened. */
export const AppFormModal = lazyModal(() => import('./app-form/app-form.modal.tsx'), 'AppFormModal');

/** The 添加应用 modal (admins): on success the list refreshes, then the new app is selected and opened. */
export function useAddAppModal(): [ReactElement, () => void] {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const opened = async ({ appId, path }: SavedApp): Promise<void> => {
    setOpen(false);
    // The list first: the current app falls back to the first listed one when it is not there.
    await refreshAfterAppSave(queryClient, appId);
    setCurrentAppId(appId);
    void navigate(appPagePath({ path }));
  };

  const modal = (
    <AppFormModal open={open} app={null} onClose={() => setOpen(false)} onSaved={(saved) => void opened(saved)} />
  );
  return [modal, () => setOpen(true)];
}
