import { useMemo } from 'react';
import { Empty, Modal } from 'antd';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import type { WikiEvent } from './commit-metadata.ts';
import { commitsText } from './commits.strings.ts';
import { diffLines, diffRows, type DiffLine } from './wiki-diff.ts';

const text = commitsText.metadata;
const marks = { same: ' ', add: '+', remove: '-' } as const;

function Line({ line, testId }: { line: DiffLine | null; testId?: string }) {
  if (!line) return <div className="wiki-diff-line is-blank">{'\u00a0'}</div>;
  return (
    <div className={`wiki-diff-line is-${line.type}`} data-testid={testId}>
      <span className="wiki-diff-mark">{marks[line.type]}</span>
      {line.text || '\u00a0'}
    </div>
  );
}

/** SPEC §2 wiki-difference modal (80vw): the document before and after side by side (one column on mobile). */
export function WikiDiffModal({ event, onClose }: { event: WikiEvent | null; onClose: () => void }) {
  const isMobile = useIsMobile();
  const lines = useMemo(() => (event ? diffLines(event.beforeContent, event.afterContent) : []), [event]);
  const rows = useMemo(() => diffRows(lines), [lines]);
  const changed = lines.some((line) => line.type !== 'same');
  return (
    <Modal
      title={event ? `${text.diffTitle}：${event.objTitle}` : text.diffTitle}
      open={event !== null}
      onCancel={onClose}
      footer={null}
      width="80vw"
      destroyOnHidden
    >
      <div data-testid="wiki-diff" className="wiki-diff">
        {!changed ? (
          <Empty description={text.noDiff} />
        ) : isMobile ? (
          lines.map((line, index) => <Line key={index} line={line} testId={`wiki-diff-${line.type}`} />)
        ) : (
          <div className="wiki-diff-columns">
            <div className="wiki-diff-head">{text.before}</div>
            <div className="wiki-diff-head">{text.after}</div>
            {rows.map((row, index) => (
              <div key={index} className="wiki-diff-row">
                <Line line={row.left} testId={row.left?.type === 'remove' ? 'wiki-diff-remove' : undefined} />
                <Line line={row.right} testId={row.right?.type === 'add' ? 'wiki-diff-add' : undefined} />
              </div>
            ))}
          </div>
        )}
      </div>
    </Modal>
  );
}
