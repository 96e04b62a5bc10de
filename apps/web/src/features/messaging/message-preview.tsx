import { Empty, Typography } from 'antd';
import type { CommitLogItem } from '@release/contract';
import { sentLine } from './message-lines.ts';
import { messagingText } from './messaging.strings.ts';

const SHOWN = 20;

/** What the message will say, as the receiver's card lists it: 7-character id, type, subject (cut as sent), author. */
export function MessagePreview({ title, items }: { title: string; items: CommitLogItem[] }) {
  if (!items.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={messagingText.logs.empty} />;
  return (
    <div
      data-testid="message-preview"
      style={{
        maxHeight: 260,
        overflowY: 'auto',
        background: 'rgba(0,0,0,0.02)',
        borderRadius: 6,
        padding: '8px 12px',
      }}
    >
      <Typography.Text strong>{title}</Typography.Text>
      <div style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12, margin: '2px 0 6px' }}>
        {messagingText.logs.total(items.length)}
      </div>
      {items.slice(0, SHOWN).map((item) => {
        const line = sentLine(item);
        return (
          <div
            key={item.id}
            style={{ fontSize: 13, lineHeight: '22px', wordBreak: 'break-all' }}
            data-testid="message-preview-line"
          >
            {line.shortId !== null ? (
              <>
                <Typography.Text code>{line.shortId}</Typography.Text>{' '}
              </>
            ) : null}
            {line.typeLabel ? `【${line.typeLabel}】` : ''}
            {line.subject} — {line.author}
          </div>
        );
      })}
      {items.length > SHOWN ? (
        <div style={{ fontSize: 13 }}>{messagingText.logs.more(items.length - SHOWN)}</div>
      ) : null}
    </div>
  );
}
