import { useEffect, useRef, useState, type RefObject } from 'react';
import { moveItem } from './workflow-tabs.ts';

/** SPEC §9: a tab is picked up after being pressed for 500 ms. */
export const DRAG_START_DELAY_MS = 500;
/** Moving farther than this before the delay is a click or a scroll, not a drag. */
const SLOP_PX = 8;

interface PressSortableOptions {
  containerRef: RefObject<HTMLElement | null>;
  /** Every key in display order (antd renders each tab with data-node-key). */
  keys: string[];
  canDrag: (key: string) => boolean;
  enabled: boolean;
  onDrop: (keys: string[]) => void;
}

export interface PressSortable {
  /** The order to show while dragging (null when idle). */
  previewKeys: string[] | null;
  draggingKey: string | null;
}

function nodeKeyAt(container: HTMLElement, target: EventTarget | null): string | null {
  if (!(target instanceof Element)) return null;
  const node = target.closest<HTMLElement>('[data-node-key]');
  return node && container.contains(node) ? (node.dataset.nodeKey ?? null) : null;
}

/** Where the dragged key goes: after every other draggable tab whose centre is left of the pointer. */
function targetIndex(
  container: HTMLElement,
  keys: string[],
  dragging: string,
  canDrag: (key: string) => boolean,
  x: number,
): number {
  const without = keys.filter((key) => key !== dragging);
  let index = without.findIndex((key) => canDrag(key));
  if (index < 0) index = without.length;
  for (const key of without) {
    if (!canDrag(key)) continue;
    const node = container.querySelector<HTMLElement>(`[data-node-key="${CSS.escape(key)}"]`);
    const rect = node?.getBoundingClientRect();
    if (rect && x > rect.left + rect.width / 2) index = without.indexOf(key) + 1;
  }
  return index;
}

/**
 * A small pointer-based sortable for a tab bar: press a tab for 500 ms, slide it, release to drop.
 * Moving before the delay cancels (a click or a scroll); keys that cannot drag stay where they are.
 */
export function usePressSortable({
  containerRef,
  keys,
  canDrag,
  enabled,
  onDrop,
}: PressSortableOptions): PressSortable {
  const [previewKeys, setPreviewKeys] = useState<string[] | null>(null);
  const [draggingKey, setDraggingKey] = useState<string | null>(null);
  const latest = useRef({ keys, canDrag, onDrop });
  latest.current = { keys, canDrag, onDrop };

  useEffect(() => {
    const container = containerRef.current;
    if (!container || !enabled) return;
    let timer: number | undefined;
    let press: { key: string; x: number; y: number; pointerId: number } | null = null;
    let order: string[] | null = null;

    const stopClick = (event: Event) => {
      event.stopPropagation();
      event.preventDefault();
    };
    const finish = (drop: boolean) => {
      window.clearTimeout(timer);
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onCancel);
      const wasDragging = order !== null;
      if (wasDragging && drop && order && order.join() !== latest.current.keys.join()) latest.current.onDrop(order);
      if (wasDragging) {
        // The click that follows the release must not also switch tabs.
        container.addEventListener('click', stopClick, { capture: true, once: true });
        window.setTimeout(() => container.removeEventListener('click', stopClick, { capture: true }), 0);
      }
      press = null;
      order = null;
      setPreviewKeys(null);
      setDraggingKey(null);
    };
    const onMove = (event: PointerEvent) => {
      if (!press || event.pointerId !== press.pointerId) return;
      if (order === null) {
        if (Math.hypot(event.clientX - press.x, event.clientY - press.y) > SLOP_PX) finish(false);
        return;
      }
      const { keys: current, canDrag: draggable } = latest.current;
      const from = order.indexOf(press.key);
      const to = targetIndex(container, order, press.key, draggable, event.clientX);
      const next = moveItem(order, from, to);
      if (next.join() !== order.join() && current.length === next.length) {
        order = next;
        setPreviewKeys(next);
      }
    };
    const onUp = () => finish(true);
    const onCancel = () => finish(false);
    const onDown = (event: PointerEvent) => {
      if (event.button !== 0 || press) return;
      const key = nodeKeyAt(container, event.target);
      if (key === null || !latest.current.canDrag(key)) return;
      press = { key, x: event.clientX, y: event.clientY, pointerId: event.pointerId };
      window.addEventListener('pointermove', onMove);
      window.addEventListener('pointerup', onUp);
      window.addEventListener('pointercancel', onCancel);
      timer = window.setTimeout(() => {
        order = [...latest.current.keys];
        setPreviewKeys(order);
        setDraggingKey(key);
      }, DRAG_START_DELAY_MS);
    };
    // While a tab is held, touch moves drag it instead of scrolling, and no context menu opens.
    const onTouchMove = (event: TouchEvent) => {
      if (order !== null) event.preventDefault();
    };
    const onContextMenu = (event: Event) => {
      if (press) event.preventDefault();
    };
    container.addEventListener('pointerdown', onDown);
    container.addEventListener('touchmove', onTouchMove, { passive: false });
    container.addEventListener('contextmenu', onContextMenu);
    return () => {
      finish(false);
      container.removeEventListener('pointerdown', onDown);
      container.removeEventListener('touchmove', onTouchMove);
      container.removeEventListener('contextmenu', onContextMenu);
    };
  }, [containerRef, enabled]);

  return { previewKeys, draggingKey };
}
