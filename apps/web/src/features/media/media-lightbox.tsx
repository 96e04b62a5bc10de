import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button, Tooltip } from 'antd';
import {
  CloseOutlined,
  ExportOutlined,
  LeftOutlined,
  RightOutlined,
  RotateLeftOutlined,
  RotateRightOutlined,
  UndoOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { mediaKind } from '@release/contract';
import {
  canZoom,
  fileNameOf,
  maxScaleFor,
  MAX_NATURAL_SCALE,
  rotateBy,
  throttle,
  WHEEL_THROTTLE_MS,
  wrapIndex,
  zoomBy,
} from './media-view.ts';
import { mediaText } from './media.strings.ts';
import { JsonView } from './json-view.tsx';
import './media.css';

interface MediaLightboxProps {
  urls: string[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

function BarButton({
  title,
  icon,
  onClick,
  testId,
  disabled = false,
}: {
  title: string;
  icon: ReactNode;
  onClick: () => void;
  testId: string;
  disabled?: boolean;
}) {
  return (
    <Tooltip title={title}>
      <Button type="text" icon={icon} aria-label={title} onClick={onClick} disabled={disabled} data-testid={testId} />
    </Tooltip>
  );
}

/**
 * SPEC §2/§9 media lightbox: images (zoom in 0.48 steps above 0.1 and up to 3x the natural size, the buttons disabled at the limits, rotate by
 * 90°, wheel zoom at most every 80 ms), videos and JSON by extension; Escape closes, ← → move.
 */
export function MediaLightbox({ urls, index, onIndexChange, onClose }: MediaLightboxProps) {
  const url = urls[index] ?? '';
  const kind = mediaKind(url);
  const [scale, setScale] = useState(1);
  const [rotation, setRotation] = useState(0);
  const [maxScale, setMaxScale] = useState(MAX_NATURAL_SCALE);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number; from: { x: number; y: number } } | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const many = urls.length > 1;
  const go = (delta: number): void => onIndexChange(wrapIndex(index, delta, urls.length));
  const actions = useRef({ go, onClose, zoom: (direction: 1 | -1) => setScale((s) => zoomBy(s, direction, maxScale)) });
  actions.current = { go, onClose, zoom: (direction: 1 | -1) => setScale((s) => zoomBy(s, direction, maxScale)) };

  const reset = (): void => {
    setScale(1);
    setRotation(0);
    setOffset({ x: 0, y: 0 });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: another picture starts unzoomed; reset only sets state
  useEffect(() => {
    reset();
    setMaxScale(MAX_NATURAL_SCALE);
  }, [url]);

  useEffect(() => {
    rootRef.current?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    // Capture at the window so a drawer or modal underneath does not also react to the keys.
    const onKey = (event: KeyboardEvent) => {
      const handlers: Record<string, () => void> = {
        Escape: () => actions.current.onClose(),
        ArrowLeft: () => actions.current.go(-1),
        ArrowRight: () => actions.current.go(1),
      };
      const handler = handlers[event.key];
      if (!handler) return;
      event.preventDefault();
      event.stopPropagation();
      handler();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => {
      window.removeEventListener('keydown', onKey, { capture: true });
      document.body.style.overflow = overflow;
    };
  }, []);

  useEffect(() => {
    const stage = stageRef.current;
    if (!stage || kind !== 'image') return;
    const zoom = throttle((direction: 1 | -1) => actions.current.zoom(direction), WHEEL_THROTTLE_MS);
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      if (event.deltaY !== 0) zoom(event.deltaY < 0 ? 1 : -1);
    };
    stage.addEventListener('wheel', onWheel, { passive: false });
    return () => stage.removeEventListener('wheel', onWheel);
  }, [kind]);

  return createPortal(
    <div
      ref={rootRef}
      className="lightbox"
      role="dialog"
      aria-modal="true"
      aria-label={fileNameOf(url)}
      tabIndex={-1}
      data-testid="lightbox"
      data-scale={scale}
      data-rotation={rotation}
    >
      <div className="lightbox-bar">
        <span className="lightbox-title">
          {many ? `${mediaText.counter(index + 1, urls.length)}　` : ''}
          {fileNameOf(url)}
        </span>
        {kind === 'image' ? (
          <>
            <BarButton
              title={mediaText.zoomOut}
              icon={<ZoomOutOutlined />}
              onClick={() => actions.current.zoom(-1)}
              testId="lightbox-zoom-out"
              disabled={!canZoom(scale, -1, maxScale)}
            />
            <BarButton
              title={mediaText.zoomIn}
              icon={<ZoomInOutlined />}
              onClick={() => actions.current.zoom(1)}
              testId="lightbox-zoom-in"
              disabled={!canZoom(scale, 1, maxScale)}
            />
            <BarButton
              title={mediaText.rotateLeft}
              icon={<RotateLeftOutlined />}
              onClick={() => setRotation((r) => rotateBy(r, -1))}
              testId="lightbox-rotate-left"
            />
            <BarButton
              title={mediaText.rotateRight}
              icon={<RotateRightOutlined />}
              onClick={() => setRotation((r) => rotateBy(r, 1))}
              testId="lightbox-rotate-right"
            />
            <BarButton title={mediaText.reset} icon={<UndoOutlined />} onClick={reset} testId="lightbox-reset" />
          </>
        ) : null}
        <Tooltip title={mediaText.open}>
          <Button
            type="text"
            icon={<ExportOutlined />}
            href={url}
            target="_blank"
            rel="noreferrer"
            aria-label={mediaText.open}
          />
        </Tooltip>
        <BarButton title={mediaText.close} icon={<CloseOutlined />} onClick={onClose} testId="lightbox-close" />
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a click on the dark backdrop closes, as Escape does (the window key handler above) */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Escape and the close button are the keyboard's way out */}
      <div
        ref={stageRef}
        className="lightbox-stage"
        onClick={(event) => {
          if (event.target === event.currentTarget) onClose();
        }}
      >
        {kind === 'image' ? (
          <img
            src={url}
            alt={fileNameOf(url)}
            draggable={false}
            style={{
              transform: `translate(${offset.x}px, ${offset.y}px) scale(${scale}) rotate(${rotation}deg)`,
              cursor: drag.current ? 'grabbing' : 'grab',
              transition: drag.current ? 'none' : undefined,
            }}
            // A zoomed image is moved by dragging it.
            onPointerDown={(event) => {
              event.currentTarget.setPointerCapture(event.pointerId);
              drag.current = { x: event.clientX, y: event.clientY, from: offset };
            }}
            onPointerMove={(event) => {
              const start = drag.current;
              if (start)
                setOffset({ x: start.from.x + event.clientX - start.x, y: start.from.y + event.clientY - start.y });
            }}
            onPointerUp={() => {
              drag.current = null;
            }}
            onLoad={(event) =>
              setMaxScale(maxScaleFor(event.currentTarget.naturalWidth, event.currentTarget.clientWidth))
            }
          />
        ) : null}
        {kind === 'video' ? (
          // biome-ignore lint/a11y/useMediaCaption: recordings uploaded with a snapshot come without caption tracks
          <video key={url} src={url} controls autoPlay playsInline />
        ) : null}
        {kind === 'json' ? <JsonView url={url} /> : null}
        {kind === 'other' ? <span>{mediaText.unsupported}</span> : null}
        {many ? (
          <>
            <Button
              className="lightbox-nav is-prev"
              shape="circle"
              size="large"
              icon={<LeftOutlined />}
              aria-label={mediaText.previous}
              onClick={() => go(-1)}
              data-testid="lightbox-prev"
            />
            <Button
              className="lightbox-nav is-next"
              shape="circle"
              size="large"
              icon={<RightOutlined />}
              aria-label={mediaText.next}
              onClick={() => go(1)}
              data-testid="lightbox-next"
            />
          </>
        ) : null}
      </div>
    </div>,
    document.body,
  );
}
