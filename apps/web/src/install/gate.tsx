/** @jsxImportSource preact */
import { useEffect, useRef, useState } from 'preact/hooks';
import { installText } from '../features/packages/install.strings.ts';
import { Button, Icon } from './ui.tsx';

const PASSWORD_PATTERN = /^\d{6,10}$/;

interface InstallGateProps {
  /** The server's answer to the last try (安装密码错误, 密码错误次数过多…), shown under the field. */
  error: string | null;
  /** Changes with every answer, so the same message twice is shown again. */
  answeredAt: number;
  isUnlocking: boolean;
  onUnlock: (password: string) => void;
}

/** The install password (6-10 digits) that opens the page. */
export function InstallGate({ error, answeredAt, isUnlocking, onUnlock }: InstallGateProps) {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(error);
  const input = useRef<HTMLInputElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each answer shows its message again, even the same one
  useEffect(() => setProblem(error), [error, answeredAt]);
  useEffect(() => input.current?.focus(), []);

  const submit = (event: Event) => {
    event.preventDefault();
    const password = value.trim();
    const local = !password
      ? installText.passwordPlaceholder
      : PASSWORD_PATTERN.test(password)
        ? null
        : installText.passwordFormat;
    setProblem(local);
    if (!local) onUnlock(password);
  };

  return (
    <form class="i-stack i-gap-12" onSubmit={submit} noValidate data-testid="install-gate">
      <label class="i-label" for="install-password">
        {installText.passwordLabel}
      </label>
      <div class={problem ? 'i-input i-input-error' : 'i-input'}>
        <Icon name="lock" />
        <input
          ref={input}
          id="install-password"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={10}
          placeholder={installText.passwordPlaceholder}
          value={value}
          onInput={(event) => {
            setValue(event.currentTarget.value);
            setProblem(null);
          }}
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby="install-password-help"
          data-testid="install-password"
        />
      </div>
      <div
        id="install-password-help"
        class={problem ? 'i-danger i-small' : 'i-muted i-small'}
        role={problem ? 'alert' : undefined}
      >
        {problem ?? installText.passwordHint}
      </div>
      <Button type="submit" look="primary" large block busy={isUnlocking} testId="install-submit">
        {installText.unlock}
      </Button>
    </form>
  );
}
