import { type App, message } from 'antd';
import { TOAST_DEBOUNCE_MS } from '@release/contract';

type MessageApi = ReturnType<typeof App.useApp>['message'];
type ToastKind = 'success' | 'error' | 'warning' | 'info';

let boundApi: MessageApi | null = null;
const lastShownAt = new Map<string, number>();

/** Lets toasts use the antd App context (theme, locale) once it is mounted. */
export function bindMessageApi(api: MessageApi | null): void {
  boundApi = api;
}

function show(kind: ToastKind, text: string): void {
  const now = Date.now();
  const last = lastShownAt.get(text);
  // SPEC §8: the same toast is not repeated within 3 s.
  if (last !== undefined && now - last < TOAST_DEBOUNCE_MS) return;
  lastShownAt.set(text, now);
  if (lastShownAt.size > 50) {
    for (const [key, shownAt] of lastShownAt) if (now - shownAt >= TOAST_DEBOUNCE_MS) lastShownAt.delete(key);
  }
  void (boundApi ?? message)[kind](text);
}

export const toast = {
  success: (text: string): void => show('success', text),
  error: (text: string): void => show('error', text),
  warning: (text: string): void => show('warning', text),
  info: (text: string): void => show('info', text),
};
