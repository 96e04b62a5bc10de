import type { ReactNode } from 'react';
import { Drawer } from 'antd';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { dayTitle } from './calendar-math.ts';

interface DayDrawerProps {
  date: string | null;
  onClose: () => void;
  children: ReactNode;
}

/** The right-hand drawer of a calendar day, titled with the Chinese weekday and the date (SPEC §2). */
export function DayDrawer({ date, onClose, children }: DayDrawerProps) {
  const isMobile = useIsMobile();
  return (
    <Drawer
      title={date ? dayTitle(date) : ''}
      placement="right"
      open={date !== null}
      onClose={onClose}
      size={isMobile ? '100%' : 640}
      destroyOnHidden
    >
      <div data-testid="day-drawer" data-date={date ?? ''}>
        {children}
      </div>
    </Drawer>
  );
}
