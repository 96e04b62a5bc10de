import { useEffect } from 'react';
import { Button, Card, Form, Input, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchRepoHosts, saveRepoHosts } from '../../api/settings.api.ts';
import { QueryFailed } from '../../app/components/query-failed.tsx';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';

const text = {
  title: '仓库主机',
  intro:
    '工作流的仓库地址默认不能指向内网、本机或链路本地地址（如 10.x、172.16–31.x、192.168.x、127.0.0.1、169.254.x、fc00::/7），主机名解析到这些地址时也一样。内网的代码托管服务请加入允许列表；禁止列表优先于允许列表。',
  format: '每行一个：主机名（gitlab.lan）、*.域名（*.corp.example）、IP 地址或 CIDR 网段（10.0.0.0/8）。',
  allow: '允许的主机',
  deny: '禁止的主机',
  save: '保存',
  loadFailed: '读取仓库主机设置失败，请重试',
};

interface Values {
  allow: string;
  deny: string;
}

const lines = (value: string | undefined) =>
  (value ?? '')
    .split(/[\n,，\s]+/)
    .map((line) => line.trim())
    .filter(Boolean);

/** 设置 → 系统 → 仓库主机: which hosts repository addresses may reach (GET/POST /api/system_setting/repo_hosts). */
export function RepoHostsCard() {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const hosts = useQuery({ queryKey: queryKeys.repoHosts, queryFn: ({ signal }) => fetchRepoHosts(signal) });
  useEffect(() => {
    if (hosts.data) form.setFieldsValue({ allow: hosts.data.allow.join('\n'), deny: hosts.data.deny.join('\n') });
  }, [hosts.data, form]);
  const save = useMutation({
    mutationFn: (values: Values) => saveRepoHosts({ allow: lines(values.allow), deny: lines(values.deny) }),
    onSuccess: async () => {
      toast.success(zh.common.saveSuccess);
      await queryClient.invalidateQueries({ queryKey: queryKeys.repoHosts });
    },
  });

  return (
    <Card size="small" title={text.title} data-testid="repo-hosts-card" loading={hosts.isLoading}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
        {text.intro}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{text.format}</Typography.Paragraph>
      {hosts.isError && (
        <QueryFailed title={text.loadFailed} onRetry={() => void hosts.refetch()} testId="repo-hosts-load-failed" />
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => save.mutate(values)}
        disabled={!hosts.data || save.isPending}
      >
        <Form.Item name="allow" label={text.allow}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 8 }}
            placeholder="gitlab.lan&#10;10.0.0.0/8"
            data-testid="repo-hosts-allow"
          />
        </Form.Item>
        <Form.Item name="deny" label={text.deny}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} placeholder="10.0.0.1" data-testid="repo-hosts-deny" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="repo-hosts-save">
          {text.save}
        </Button>
      </Form>
    </Card>
  );
}
