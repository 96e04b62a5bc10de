import { Card, Radio, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { phoneCodeMode, type PhoneCodeMode } from '@release/contract';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchSystemSettings, saveSystemSettings } from '../../api/settings.api.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';

/** 登录设置: whether login asks for a phone code (GET/POST /api/system_setting). */
export function LoginSettingCard() {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: queryKeys.systemSettings,
    queryFn: ({ signal }) => fetchSystemSettings(signal),
  });
  const save = useMutation({
    mutationFn: (mode: PhoneCodeMode) => saveSystemSettings({ phoneCodeMode: mode }),
    onSuccess: async () => {
      toast.success(zh.common.saveSuccess);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.systemSettings }),
        queryClient.invalidateQueries({ queryKey: queryKeys.loginOptions }),
      ]);
    },
  });

  return (
    <Card size="small" title={zh.loginSetting.title} data-testid="login-setting-card" loading={settings.isLoading}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {zh.loginSetting.label}
      </Typography.Paragraph>
      <Radio.Group
        data-testid="phone-code-mode"
        vertical
        disabled={save.isPending}
        value={save.isPending ? save.variables : settings.data?.phoneCodeMode}
        onChange={(event) => save.mutate(phoneCodeMode.parse(event.target.value))}
        options={phoneCodeMode.options.map((mode) => ({ value: mode, label: zh.loginSetting.modes[mode] }))}
      />
    </Card>
  );
}
