import { Input, Space } from 'antd';
import { packageUrlPrefix } from '../app.constants.ts';

interface PathInputProps {
  value?: string;
  onChange?: (path: string) => void;
  disabled?: boolean;
}

/** 下载地址: the fixed `<origin>/package/` prefix, then the app's path. */
export function PathInput({ value = '', onChange, disabled = false }: PathInputProps) {
  const prefix = packageUrlPrefix();
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Space.Addon
        title={prefix}
        style={{ flex: 'none', maxWidth: '65%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {prefix}
      </Space.Addon>
      <Input
        style={{ flex: 1, minWidth: 64 }}
        value={value}
        disabled={disabled}
        maxLength={32}
        autoComplete="off"
        data-testid="app-path"
        onChange={(event) => onChange?.(event.target.value)}
      />
    </Space.Compact>
  );
}
