import { Tag, Tooltip } from 'antd';
import { AndroidFilled, AppleFilled, ChromeOutlined, FileZipOutlined, MacCommandOutlined } from '@ant-design/icons';
import type { NativePackageType } from '@release/contract';
import { isHtmlPackage, packageTypeLabels } from './version-format.ts';

interface PackageLike {
  nativePackageType: NativePackageType;
  fileName: string;
  cdnUrl?: string;
}

const colors: Record<NativePackageType, string> = { ios: 'blue', android: 'green', web: 'orange', mac: 'purple' };

/** The platform icon; a web package that is one html page gets a browser icon (SPEC §3). */
export function PackageTypeIcon({ version, size = 14 }: { version: PackageLike; size?: number }) {
  const style = { fontSize: size };
  switch (version.nativePackageType) {
    case 'ios':
      return <AppleFilled style={style} />;
    case 'android':
      return <AndroidFilled style={{ ...style, color: '#3ddc84' }} />;
    case 'mac':
      return <MacCommandOutlined style={style} />;
    case 'web':
      return isHtmlPackage(version) ? <ChromeOutlined style={{ ...style, color: '#1677ff' }} /> : <FileZipOutlined style={style} />;
  }
}

/** IPA/iOS, APK/Android, WEB or MAC with its icon. */
export function PackageTypeTag({ version }: { version: PackageLike }) {
  const html = version.nativePackageType === 'web' && isHtmlPackage(version);
  return (
    <Tooltip title={html ? 'HTML' : undefined}>
      <Tag color={colors[version.nativePackageType]} icon={<PackageTypeIcon version={version} size={12} />} data-package-type={version.nativePackageType}>
        {packageTypeLabels[version.nativePackageType]}
      </Tag>
    </Tooltip>
  );
}
