import { Alert, Button, Flex, Modal } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { copyText } from '../../app/clipboard.ts';
import { toast } from '../../app/feedback.ts';
import { zh } from '../../locales/zh-CN.ts';

interface TokenPlainModalProps {
  /** The plain token just created; null: closed. */
  token: string | null;
  onClose: () => void;
}

/** The one time a token is shown: a copy button and the warning that it will not be shown again. */
export function TokenPlainModal({ token, onClose }: TokenPlainModalProps) {
  const copy = async (): Promise<void> => {
    if (token && (await copyText(token))) toast.success(zh.apiTokens.copied);
    else toast.warning(zh.apiTokens.copyFailed);
  };

  return (
    <Modal
      title={zh.apiTokens.plainTitle}
      open={token !== null}
      onCancel={onClose}
      maskClosable={false}
      keyboard={false}
      width="min(560px, calc(100vw - 32px))"
      footer={
        <Button type="primary" data-testid="token-plain-close" onClick={onClose}>
          {zh.apiTokens.saved}
        </Button>
      }
    >
      <Flex vertical gap={12} data-testid="token-plain-modal">
        <Alert type="warning" showIcon title={zh.apiTokens.plainWarning} description={zh.apiTokens.plainHint} />
        <pre className="token-code" data-testid="token-plain" style={{ fontSize: 14 }}>
          {token}
        </pre>
        <Button
          icon={<CopyOutlined />}
          data-testid="token-copy"
          onClick={() => void copy()}
          style={{ alignSelf: 'flex-start' }}
        >
          {zh.apiTokens.copy}
        </Button>
      </Flex>
    </Modal>
  );
}
