/** @jsxImportSource preact */
import type { ComponentType } from 'preact';
import { useState } from 'preact/hooks';
import type { InstallVersion } from '@release/contract';
import { Alert, Button } from './ui.tsx';

type FormProps = { path: string; version: InstallVersion; onClose: () => void };

/**
 * 反馈问题 under a build: the form itself (and its CSS) is loaded only when a tester opens it, so the install page's
 * first paint does not grow (bench/web-size.ts).
 */
export function FeedbackEntry({ path, version }: { path: string; version: InstallVersion }) {
  const [Form, setForm] = useState<ComponentType<FormProps> | null>(null);
  const [state, setState] = useState<'closed' | 'loading' | 'failed' | 'open'>('closed');
  const open = () => {
    setState('loading');
    import('./feedback-form.tsx').then(
      (module) => {
        setForm(() => module.FeedbackForm);
        setState('open');
      },
      () => setState('failed'),
    );
  };
  if (state === 'open' && Form) return <Form path={path} version={version} onClose={() => setState('closed')} />;
  return (
    <div class="i-stack i-gap-8">
      {state === 'failed' && (
        <Alert type="error" title="反馈表单加载失败，请检查网络后重试" testId="feedback-load-failed" />
      )}
      <Button look="default" busy={state === 'loading'} onClick={open} testId="feedback-open">
        反馈问题
      </Button>
    </div>
  );
}
