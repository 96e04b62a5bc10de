import type { ReactNode } from 'react';
import { Button, Checkbox, DatePicker, Dropdown, Select, Switch, Typography } from 'antd';
import { ClockCircleOutlined, DownOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import {
  displayCategories,
  timeRangeKeys,
  timeRangeOf,
  type CommitFilter,
  type DisplayCategory,
  type TimeRangeKey,
} from './commit-filter.ts';
import { commitsText } from './commits.strings.ts';

const text = commitsText.filter;

interface FilterBarProps {
  filter: CommitFilter;
  onChange: (filter: CommitFilter) => void;
  /** Workflow tabs pick a committer; the trend page picks a project and may group by project. */
  mode: 'workflow' | 'trend';
  committers: string[];
  projects: string[];
  branches: string[];
  /** The calendar's month or year is its time window: the time filter is not offered there. */
  showTime?: boolean;
}

function Labelled({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is `children` (an antd Switch or Checkbox)
    <label style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
      {children}
      <Typography.Text>{label}</Typography.Text>
    </label>
  );
}

/** SPEC §2 filter bar: display categories, committer or project, 显示过滤的日志, 按项目分组, time window. */
export function FilterBar({ filter, onChange, mode, committers, projects, branches, showTime = true }: FilterBarProps) {
  const set = (patch: Partial<CommitFilter>): void => onChange({ ...filter, ...patch });
  const chooseTime = (key: TimeRangeKey): void => {
    // A custom window waits for its dates; until then the list keeps showing everything.
    set({ timeKey: key, range: timeRangeOf(key, Date.now()) });
  };
  const customValue =
    filter.timeKey === 'custom' && filter.range.startTime !== undefined && filter.range.endTime !== undefined
      ? ([dayjs(filter.range.startTime), dayjs(filter.range.endTime).subtract(1, 'day')] as const)
      : null;

  return (
    <div className="filter-bar" data-testid="filter-bar">
      <Checkbox.Group<DisplayCategory>
        value={filter.categories}
        onChange={(categories) => set({ categories })}
        options={displayCategories.map((value) => ({ value, label: text.categories[value] }))}
        data-testid="filter-categories"
      />
      {mode === 'workflow' ? (
        <Select
          allowClear
          showSearch
          placeholder={text.committer}
          value={filter.committer ?? undefined}
          onChange={(value?: string) => set({ committer: value ?? null })}
          options={committers.map((name) => ({ value: name, label: name }))}
          style={{ minWidth: 140 }}
          data-testid="filter-committer"
        />
      ) : (
        <Select
          allowClear
          showSearch
          placeholder={text.project}
          value={filter.project ?? undefined}
          onChange={(value?: string) => set({ project: value ?? null })}
          options={projects.map((name) => ({ value: name, label: name }))}
          style={{ minWidth: 140 }}
          data-testid="filter-project"
        />
      )}
      {branches.length > 1 ? (
        <Select
          allowClear
          placeholder={text.branch}
          value={filter.branch ?? undefined}
          onChange={(value?: string) => set({ branch: value ?? null })}
          options={branches.map((name) => ({ value: name, label: name }))}
          style={{ minWidth: 120 }}
          data-testid="filter-branch"
        />
      ) : null}
      <Labelled label={text.showFiltered}>
        <Switch
          size="small"
          checked={filter.showFiltered}
          onChange={(showFiltered) => set({ showFiltered })}
          data-testid="filter-show-filtered"
        />
      </Labelled>
      {mode === 'trend' ? (
        <Labelled label={text.groupByProject}>
          <Switch
            size="small"
            checked={filter.groupByProject}
            onChange={(groupByProject) => set({ groupByProject })}
            data-testid="filter-group-by-project"
          />
        </Labelled>
      ) : null}
      {showTime ? (
        <>
          <Dropdown
            trigger={['click']}
            menu={{
              selectable: true,
              selectedKeys: [filter.timeKey],
              items: timeRangeKeys.map((key) => ({ key, label: text.time[key] })),
              onClick: ({ key }) => {
                const chosen = timeRangeKeys.find((candidate) => candidate === key);
                if (chosen) chooseTime(chosen);
              },
            }}
          >
            <Button icon={<ClockCircleOutlined />} data-testid="filter-time">
              {text.time[filter.timeKey]} <DownOutlined />
            </Button>
          </Dropdown>
          {filter.timeKey === 'custom' ? (
            <DatePicker.RangePicker
              value={customValue ? [customValue[0], customValue[1]] : null}
              allowClear={false}
              onChange={(dates) => {
                const [start, end] = dates ?? [];
                if (start && end) set({ range: timeRangeOf('custom', Date.now(), [start.valueOf(), end.valueOf()]) });
              }}
              data-testid="filter-range"
            />
          ) : null}
        </>
      ) : null}
    </div>
  );
}
