import { useState } from 'react';
import { Button, Input, Space } from 'antd';
import { PHONE_CODE_RESEND_MS } from '@release/contract';
import { sendPhoneCode } from '../../api/auth.api.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';
import { useCountdown } from './use-countdown.ts';

interface PhoneCodeInputProps {
  value?: string;
  onChange?: (value: string) => void;
  scene: 'login' | 'forget_password';
  /** Resolves the username to send the code for, or null when the form says it is missing. */
  getUsername: () => Promise<string | null>;
  testIdPrefix: string;
}

/** A 6-digit code field with 获取验证码 and a 60 s countdown before the next send. */
export function PhoneCodeInput({ value, onChange, scene, getUsername, testIdPrefix }: PhoneCodeInputProps) {
  const [secondsLeft, startCountdown] = useCountdown();
  const [isSending, setIsSending] = useState(false);

  const send = async (): Promise<void> => {
    const username = await getUsername();
    if (!username) return;
    setIsSending(true);
    try {
      const result = await sendPhoneCode({ username, scene });
      toast.success(zh.login.codeSent(result.maskedPhone));
      startCountdown(PHONE_CODE_RESEND_MS / 1000);
    } catch {
      // The API client has already shown why.
    } finally {
      setIsSending(false);
    }
  };

  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        value={value}
        onChange={(event) => onChange?.(event.target.value)}
        placeholder={zh.login.phoneCode}
        maxLength={6}
        inputMode="numeric"
        autoComplete="one-time-code"
        data-testid={`${testIdPrefix}-phone-code`}
      />
      <Button
        onClick={() => void send()}
        loading={isSending}
        disabled={secondsLeft > 0}
        data-testid={`${testIdPrefix}-send-code`}
      >
        {secondsLeft > 0 ? zh.login.resendIn(secondsLeft) : zh.login.sendCode}
      </Button>
    </Space.Compact>
  );
}
