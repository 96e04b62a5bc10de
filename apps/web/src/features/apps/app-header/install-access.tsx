import { Button, Flex, Popconfirm, Switch, Tooltip, Typography } from 'antd';
import { CopyOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InstallAccess } from '@release/contract';
import { fetchInstallAccess, updateInstallAccess } from '../../../api/install-access.api.ts';
import { queryKeys } from '../../../api/query-keys.ts';
import { copyText } from '../../../app/clipboard.ts';
import { toast } from '../../../app/feedback.ts';
import { zh } from '../../../locales/zh-CN.ts';

export const installAccessText = {
  password: '安装密码',
  publicLink: '免密链接',
  copyPassword: '复制安装密码',
  copyLink: '复制免密链接',
  regenerate: '重新生成',
  regenerateConfirm: '重新生成安装密码？',
  regenerateHint: '旧密码立即失效，测试人员已记住的密码和已分享的安装链接需要重新输入新密码。',
  regenerated: '已生成新的安装密码',
  publicOn: '免密链接已开启：任何拿到链接的人都可以不输密码下载安装',
  publicOff: '免密链接已关闭',
  publicHint: '开启后，任何拿到此链接的人都可以不输入密码下载安装',
} as const;

async function copy(text: string): Promise<void> {
  if (await copyText(text)) toast.success(zh.appPage.copied);
  else toast.warning(zh.appPage.copyFailed);
}

/**
 * For editors and admins on the app page: the install password (copy, 重新生成 — which ends remembered passes) and the
 * app's password-free link (/package/<publicPath>), off until turned on here.
 */
export function InstallAccessFields({ appId }: { appId: number }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.installAccess(appId),
    queryFn: ({ signal }) => fetchInstallAccess(appId, signal),
  });
  const save = useMutation({
    mutationFn: updateInstallAccess,
    onSuccess: (next: InstallAccess, body) => {
      queryClient.setQueryData(queryKeys.installAccess(appId), next);
      // The settings modal shows the password too.
      void queryClient.invalidateQueries({ queryKey: queryKeys.appDetail(appId) });
      if (body.regeneratePassword) toast.success(installAccessText.regenerated);
      else toast.success(next.publicInstall ? installAccessText.publicOn : installAccessText.publicOff);
    },
  });
  const access = query.data;
  if (!access) return null;
  return (
    <Flex vertical gap={6} data-testid="install-access">
      <Flex align="center" gap={4} wrap>
        <Typography.Text type="secondary">{installAccessText.password}：</Typography.Text>
        <Typography.Text strong copyable={false} data-testid="install-access-password" style={{ letterSpacing: 1 }}>
          {access.password}
        </Typography.Text>
        <Tooltip title={installAccessText.copyPassword}>
          <Button
            type="text"
            size="small"
            icon={<CopyOutlined />}
            aria-label={installAccessText.copyPassword}
            data-testid="install-access-copy"
            onClick={() => void copy(access.password)}
          />
        </Tooltip>
        <Popconfirm
          title={installAccessText.regenerateConfirm}
          description={<div style={{ maxWidth: 260 }}>{installAccessText.regenerateHint}</div>}
          onConfirm={() => save.mutate({ appId, regeneratePassword: true })}
        >
          <Button
            type="link"
            size="small"
            icon={<ReloadOutlined />}
            loading={save.isPending && save.variables.regeneratePassword === true}
            data-testid="install-access-regenerate"
            style={{ paddingInline: 4 }}
          >
            {installAccessText.regenerate}
          </Button>
        </Popconfirm>
      </Flex>
      <Flex align="center" gap={8} wrap style={{ minWidth: 0 }}>
        <Typography.Text type="secondary">{installAccessText.publicLink}：</Typography.Text>
        <Tooltip title={installAccessText.publicHint}>
          <Switch
            size="small"
            checked={access.publicInstall}
            loading={save.isPending && save.variables.publicInstall !== undefined}
            onChange={(checked) => save.mutate({ appId, publicInstall: checked })}
            data-testid="install-access-public"
          />
        </Tooltip>
        {access.publicInstall && (
          <Flex align="center" gap={4} style={{ minWidth: 0, maxWidth: '100%' }}>
            <Typography.Link
              href={access.publicUrl}
              target="_blank"
              rel="noreferrer"
              ellipsis
              style={{ minWidth: 0 }}
              data-testid="install-access-public-url"
            >
              {access.publicUrl}
            </Typography.Link>
            <Tooltip title={installAccessText.copyLink}>
              <Button
                type="text"
                size="small"
                icon={<CopyOutlined />}
                aria-label={installAccessText.copyLink}
                onClick={() => void copy(access.publicUrl)}
              />
            </Tooltip>
          </Flex>
        )}
      </Flex>
    </Flex>
  );
}
