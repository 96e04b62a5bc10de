import { useState } from 'react';

export interface Editing<T> {
  open: boolean;
  /** null: creating a new record. */
  record: T | null;
  openCreate: () => void;
  openEdit: (record: T) => void;
  close: () => void;
}

/** The open/closed state of a manage page's create-or-edit modal. */
export function useEditing<T>(): Editing<T> {
  const [state, setState] = useState<{ open: boolean; record: T | null }>({ open: false, record: null });
  return {
    ...state,
    openCreate: () => setState({ open: true, record: null }),
    openEdit: (record) => setState({ open: true, record }),
    close: () => setState({ open: false, record: null }),
  };
}
