import { profileTypeLabels, type CertProfileType, type InstallDetail } from '@release/contract';
import type { VersionRecord } from '../versions/versions.repository.ts';

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : null);

/**
 * What the console knows of a build, for its own install page: ids, versions, size, system, profile and its expiry,
 * devices, permissions. Labels in Chinese, values as text; what the package does not have is left out.
 */
export function buildDetails(v: VersionRecord, minimumOs: string | null): InstallDetail[] {
  // Unreadable metadata reads as {}: the columns still tell the basics.
  const meta = v.metadata;
  const profile = meta.provisioningProfile ?? null;
  const rows: Array<[string, string | number | null | undefined]> = [
    [v.native_package_type === 'android' ? '包名' : 'Bundle ID', v.bundle_id],
    ['版本号', v.app_version],
    ['构建号', v.build],
    ['名称', v.display_name ?? meta.title],
    ['文件', v.file_name],
    ['大小', `${(v.app_size / 1024 / 1024).toFixed(2)} MB`],
    ['最低系统', minimumOs],
    ['目标 SDK', meta.targetSdkVersion ? `Android API ${meta.targetSdkVersion}` : null],
    ['支持设备', meta.deviceFamilies?.length ? meta.deviceFamilies.join('、') : null],
    ['CPU 架构', meta.nativeAbis?.length ? meta.nativeAbis.join('、') : null],
    [
      '描述文件',
      profile
        ? [profile.type ? (profileTypeLabels[profile.type as CertProfileType] ?? profile.type) : null, profile.name]
            .filter(Boolean)
            .join(' · ')
        : null,
    ],
    ['开发团队', profile?.teamName ? `${profile.teamName}${profile.teamId ? `（${profile.teamId}）` : ''}` : null],
    ['证书到期', day(profile?.expiresAt)],
    [
      '已登记设备',
      profile
        ? profile.provisionsAllDevices
          ? '所有设备'
          : profile.provisionedDevices?.length
            ? `${profile.provisionedDevices.length} 台`
            : null
        : null,
    ],
    [
      '权限',
      meta.permissions?.length ? meta.permissions.map((p) => p.replace(/^android\.permission\./, '')).join('、') : null,
    ],
    ['入口页面', meta.indexHtmlPath],
    ['文件数', meta.fileCount],
    ['上传者', v.uploader],
  ];
  return rows
    .filter((row): row is [string, string | number] => row[1] !== null && row[1] !== undefined && row[1] !== '')
    .map(([label, value]) => ({ label, value: String(value) }));
}
