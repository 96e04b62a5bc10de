import { Alert, Button, Flex, Skeleton, Typography } from 'antd';
import type { InstallStats } from '@release/contract';
import { statsText } from './install-stats.strings.ts';

const BAR = 10;
const HEIGHT = 48;
const DOWNLOAD_COLOR = '#1677ff';
const INSTALL_COLOR = '#52c41a';

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <Flex gap={4} align="center">
      <span style={{ width: 8, height: 8, borderRadius: 2, background: color, display: 'inline-block' }} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
    </Flex>
  );
}

/** Downloads and installs per day (stacked bars, one per day, oldest left), drawn as plain SVG. */
function Bars({ daily }: { daily: InstallStats['daily'] }) {
  const top = Math.max(1, ...daily.map((d) => d.downloads + d.installs));
  const scale = (n: number) => (n / top) * HEIGHT;
  return (
    <svg
      viewBox={`0 0 ${daily.length * BAR} ${HEIGHT}`}
      preserveAspectRatio="none"
      width="100%"
      height={HEIGHT}
      role="img"
      aria-label={statsText.chartTitle}
      data-testid="install-stats-bars"
      style={{ display: 'block' }}
    >
      <line x1={0} x2={daily.length * BAR} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} stroke="#f0f0f0" />
      {daily.map((d, i) => {
        const down = scale(d.downloads);
        const inst = scale(d.installs);
        return (
          <g key={d.day} data-testid="install-stats-day" data-day={d.day} data-downloads={d.downloads}>
            <title>{statsText.chartDay(d.day, d.downloads, d.installs)}</title>
            {/* The whole column answers the hover, not only its bar. */}
            <rect x={i * BAR} y={0} width={BAR} height={HEIGHT} fill="transparent" />
            {down > 0 && (
              <rect x={i * BAR + 1.5} y={HEIGHT - down} width={BAR - 3} height={down} fill={DOWNLOAD_COLOR} />
            )}
            {inst > 0 && (
              <rect x={i * BAR + 1.5} y={HEIGHT - down - inst} width={BAR - 3} height={inst} fill={INSTALL_COLOR} />
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** The app's downloads and installs over the last 30 days, above its package list; says what to do while empty. */
export function DownloadsChart({
  stats,
  isError,
  onRetry,
}: {
  stats: InstallStats | undefined;
  isError: boolean;
  onRetry: () => void;
}) {
  if (isError)
    return (
      <Alert
        type="warning"
        showIcon
        title={statsText.loadFailed}
        action={
          <Button size="small" onClick={onRetry}>
            {statsText.retry}
          </Button>
        }
        data-testid="install-stats-failed"
      />
    );
  if (!stats) return <Skeleton.Button active block style={{ height: HEIGHT + 24 }} />;
  const downloads = stats.daily.reduce((sum, d) => sum + d.downloads, 0);
  const installs = stats.daily.reduce((sum, d) => sum + d.installs, 0);
  const first = stats.daily[0]?.day.slice(5) ?? '';
  const last = stats.daily.at(-1)?.day.slice(5) ?? '';
  return (
    <Flex vertical gap={4} data-testid="install-stats-chart">
      <Flex justify="space-between" align="baseline" wrap gap={4}>
        <Typography.Text strong>{statsText.chartTitle}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="install-stats-total">
          {statsText.chartTotal(downloads, installs)}
        </Typography.Text>
      </Flex>
      {downloads + installs === 0 ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="install-stats-empty">
          {statsText.chartEmpty}
        </Typography.Text>
      ) : (
        <>
          <Bars daily={stats.daily} />
          <Flex justify="space-between" align="center" gap={8}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {first}
            </Typography.Text>
            <Flex gap={12}>
              <Legend color={DOWNLOAD_COLOR} label={statsText.legendDownloads} />
              <Legend color={INSTALL_COLOR} label={statsText.legendInstalls} />
            </Flex>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {last}
            </Typography.Text>
          </Flex>
        </>
      )}
    </Flex>
  );
}
