import { useMemo } from 'react';
import { Empty, Modal } from 'antd';
import { diffLines, type WikiEvent } from './commit-metadata.ts';
import { commitsText } from './commits.strings.ts';

const text = commitsText.metadata;
const marks = { same: ' ', add: '+', remove: '-' } as const;

/** SPEC §2 wiki-difference modal (80vw): the document before and after, as a line diff. */
export function WikiDiffModal({ event, onClose }: { event: WikiEvent | null; onClose: () => void }) {
  const lines = useMemo(() => (event ? diffLines(event.beforeContent, event.afterContent) : []), [event]);
  const changed = lines.some((line) => line.type !== 'same');
  return (
    <Modal title={event ? `${text.diffTitle}：${event.objTitle}` : text.diffTitle} open={event !== null} onCancel={onClose} footer={null} width="80vw" destroyOnHidden>
      <div data-testid="wiki-diff" className="wiki-diff">
        {changed ? (
          lines.map((line, index) => (
            <div key={index} className={`wiki-diff-line is-${line.type}`}>
              <span className="wiki-diff-mark">{marks[line.type]}</span>
              {line.text || '\u00a0'}
            </div>
          ))
        ) : (
          <Empty description={text.noDiff} />
        )}
      </div>
    </Modal>
  );
}
