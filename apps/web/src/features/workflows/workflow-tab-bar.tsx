import { useMemo, useRef, type ReactNode } from 'react';
import { Tabs } from 'antd';
import { ApartmentOutlined } from '@ant-design/icons';
import { SUMMARY_TAB_ID } from '@release/contract';
import { usePressSortable } from './use-press-sortable.ts';
import type { WorkflowTab } from './workflow-tabs.ts';
import { workflowsText } from './workflows.strings.ts';
import './workflows.css';

interface WorkflowTabBarProps {
  tabs: WorkflowTab[];
  activeId: number | null;
  onChange: (id: number) => void;
  /** Editors can drag tabs (never the summary tab). */
  canDrag: boolean;
  onReorder: (ids: number[]) => void;
  extra: ReactNode;
  /** Phones: the extra goes on its own row above the tabs, so the tabs keep the width. */
  compact: boolean;
}

/** The workflow tabs (SPEC §2): antd Tabs as a bar, sortable by a 500 ms press for editors. */
export function WorkflowTabBar({ tabs, activeId, onChange, canDrag, onReorder, extra, compact }: WorkflowTabBarProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const keys = useMemo(() => tabs.map((tab) => String(tab.id)), [tabs]);
  const sortable = usePressSortable({
    containerRef,
    keys,
    enabled: canDrag,
    canDrag: (key) => key !== String(SUMMARY_TAB_ID),
    onDrop: (next) => onReorder(next.map(Number)),
  });
  const byKey = new Map(tabs.map((tab) => [String(tab.id), tab]));
  const shown = (sortable.previewKeys ?? keys).flatMap((key) => byKey.get(key) ?? []);

  return (
    <div
      ref={containerRef}
      data-testid="workflow-tabs"
      className={['workflow-tabs', canDrag ? 'is-sortable' : '', sortable.draggingKey ? 'is-dragging' : ''].join(' ')}
    >
      {compact ? <div className="workflow-tabs-extra">{extra}</div> : null}
      <Tabs
        activeKey={activeId === null ? undefined : String(activeId)}
        onChange={(key) => onChange(Number(key))}
        tabBarExtraContent={compact ? undefined : extra}
        items={shown.map((tab) => {
          const isSummary = tab.id === SUMMARY_TAB_ID;
          const label = (
            // biome-ignore lint/correctness/useJsxKeyInIterable: the key is the item's own (returned below), not the label's
            <span
              data-testid="workflow-tab"
              data-workflow-id={tab.id}
              className={
                sortable.draggingKey === String(tab.id) ? 'workflow-tab-label is-dragged' : 'workflow-tab-label'
              }
              // A long name is cut with … (workflows.css): hovering shows it whole, and editors how to drag.
              title={canDrag && !isSummary ? `${tab.tabName}\n${workflowsText.dragHint}` : tab.tabName}
            >
              {isSummary ? <ApartmentOutlined /> : null}
              <span className="workflow-tab-name">{tab.tabName}</span>
            </span>
          );
          return { key: String(tab.id), label };
        })}
      />
    </div>
  );
}
