import { useEffect, useState } from 'react';

/**
 * Fills a modal's form once per opening, when the stored values arrive: a refetch while it is open must not overwrite
 * what is being typed. Answers whether it is filled; until then the form stays disabled, so that a save cannot send
 * empty fields over the stored values.
 */
export function useFillOnOpen<T>(open: boolean, stored: T | undefined, fill: (stored: T) => void): boolean {
  const [filled, setFilled] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `fill` is a new function each render; only opening or the stored values arriving fill the form
  useEffect(() => {
    if (!open) setFilled(false);
    else if (stored !== undefined && !filled) {
      fill(stored);
      setFilled(true);
    }
  }, [open, stored, filled]);
  return filled;
}
