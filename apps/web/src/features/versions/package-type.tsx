import type { ReactNode } from 'react';
import { Tag, Tooltip } from 'antd';
import {
  AndroidFilled,
  AppleFilled,
  ChromeOutlined,
  FileZipOutlined,
  MacCommandOutlined,
  MobileOutlined,
} from '@ant-design/icons';
import {
  kindOfBuild,
  mainKindOf,
  packageKindRow,
  platformColors,
  platformTag,
  type NativePackageType,
  type PackageIconName,
  type PackageKind,
} from '@release/contract';
import { isHtmlPackage } from './version-format.ts';

interface PackageLike {
  nativePackageType: NativePackageType;
  fileName: string;
  cdnUrl?: string;
  /** The inspector's findings; `kind` says what the file is (an .aab is android but not an apk). */
  metadata?: Record<string, unknown>;
}

/** The console's antd icon for each icon of the kind table. */
const icons: Record<PackageIconName, (size: number) => ReactNode> = {
  apple: (size) => <AppleFilled style={{ fontSize: size }} />,
  android: (size) => <AndroidFilled style={{ fontSize: size, color: '#3ddc84' }} />,
  mac: (size) => <MacCommandOutlined style={{ fontSize: size }} />,
  archive: (size) => <FileZipOutlined style={{ fontSize: size }} />,
  browser: (size) => <ChromeOutlined style={{ fontSize: size, color: '#1677ff' }} />,
  harmony: (size) => <MobileOutlined style={{ fontSize: size, color: '#cf0a2c' }} />,
};

/** The console tells a build by its kind: its platform's, an Android App Bundle as AAB, a web build that is one html page apart (SPEC §3). */
function kindShown(version: PackageLike): PackageKind {
  if (version.nativePackageType === 'web') return isHtmlPackage(version) ? 'html' : 'zip';
  return kindOfBuild({
    statedKind: version.metadata?.kind,
    fileName: version.fileName,
    platform: version.nativePackageType,
  });
}

/** The platform icon; a web package that is one html page gets a browser icon. */
export function PackageTypeIcon({ version, size = 14 }: { version: PackageLike; size?: number }) {
  return icons[packageKindRow(kindShown(version)).icon](size);
}

/** IPA/iOS, APK/Android, AAB, WEB or MAC with its icon. */
export function PackageTypeTag({ version }: { version: PackageLike }) {
  const kind = kindShown(version);
  const html = kind === 'html';
  // A kind other than its platform's main one says so (AAB); an html page keeps the platform's tag, named in its tooltip.
  const tag =
    html || kind === mainKindOf(version.nativePackageType)
      ? platformTag(version.nativePackageType)
      : packageKindRow(kind).tag;
  return (
    <Tooltip title={html ? packageKindRow('html').tag : undefined}>
      <Tag
        color={platformColors[version.nativePackageType]}
        icon={<PackageTypeIcon version={version} size={12} />}
        data-package-type={version.nativePackageType}
        data-package-kind={kind}
      >
        {tag}
      </Tag>
    </Tooltip>
  );
}
