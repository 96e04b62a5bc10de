import { Checkbox, Flex, Select, Typography } from 'antd';
import type { SimpleVersions } from '../../api/commit-logs.api.ts';
import { versionText } from '../versions/version-format.ts';
import { commitsText } from './commits.strings.ts';
import { versionKinds, type VersionPicks } from './snapshot.ts';

const text = commitsText.snapshot;

interface SnapshotVersionsProps {
  versions: SimpleVersions | undefined;
  picks: VersionPicks;
  onChange: (picks: VersionPicks) => void;
}

/** SPEC §5: one picker per non-empty IPA / APK / WEB list, enabled only while its checkbox is ticked. */
export function SnapshotVersions({ versions, picks, onChange }: SnapshotVersionsProps) {
  const kinds = versionKinds.filter(({ key }) => (versions?.[key].length ?? 0) > 0);
  if (!versions) return null;
  if (kinds.length === 0) return <Typography.Text type="secondary">{text.noVersions}</Typography.Text>;
  return (
    <Flex vertical gap={8} data-testid="snapshot-versions">
      {kinds.map(({ key, label }) => (
        <Flex key={key} gap={8} align="center">
          <Checkbox
            checked={picks[key].enabled}
            onChange={(event) => onChange({ ...picks, [key]: { ...picks[key], enabled: event.target.checked } })}
            style={{ width: 72 }}
            data-testid={`snapshot-version-check-${key}`}
          >
            {label}
          </Checkbox>
          <Select
            mode="multiple"
            disabled={!picks[key].enabled}
            value={picks[key].ids}
            onChange={(ids: number[]) => onChange({ ...picks, [key]: { ...picks[key], ids } })}
            placeholder={text.versionPlaceholder}
            options={versions[key].map((v) => ({ value: v.appVersionId, label: `#${v.indexNo} ${versionText(v)}` }))}
            optionFilterProp="label"
            style={{ flex: 1, minWidth: 0 }}
            data-testid={`snapshot-version-${key}`}
          />
        </Flex>
      ))}
    </Flex>
  );
}
