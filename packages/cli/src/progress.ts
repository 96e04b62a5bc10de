/** Where progress goes: stderr, so stdout stays clean for `--json`. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface Progress {
  update(loaded: number, total: number): void;
  /** Ends the line (TTY) or prints the last step. */
  finish(): void;
}

const BAR_WIDTH = 30;
const REDRAW_MS = 100;
const PLAIN_STEP = 10;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

export function percentOf(loaded: number, total: number): number {
  return total <= 0 ? 100 : Math.floor((loaded / total) * 100);
}

/** `[#########---------]  45%  12.0 MB / 26.7 MB` */
export function renderBar(label: string, loaded: number, total: number): string {
  const percent = percentOf(loaded, total);
  const filled = Math.round((percent / 100) * BAR_WIDTH);
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(percent).padStart(3)}%  ${formatBytes(loaded)} / ${formatBytes(total)}`;
}

/**
 * A redrawn bar on a terminal; on anything else (CI logs) one plain line per 10 % step,
 * so logs stay short and readable.
 */
export function createProgress(stream: ProgressStream, label: string, now: () => number = Date.now): Progress {
  let lastDraw = -Infinity;
  let lastDrawnPercent = -1;
  let lastStep = -1;
  let last = { loaded: 0, total: 0 };
  const draw = () => stream.write(`\r${renderBar(label, last.loaded, last.total)}\x1b[K`);
  return {
    update(loaded, total) {
      last = { loaded, total };
      if (stream.isTTY) {
        const percent = percentOf(loaded, total);
        // Redraw on a new figure, at most every 100 ms, but never miss reaching 100 %.
        if (percent === lastDrawnPercent || (now() - lastDraw < REDRAW_MS && percent < 100)) return;
        lastDraw = now();
        lastDrawnPercent = percent;
        draw();
        return;
      }
      const step = Math.floor(percentOf(loaded, total) / PLAIN_STEP) * PLAIN_STEP;
      if (step <= lastStep) return;
      lastStep = step;
      stream.write(`${label}: ${step}% (${formatBytes(loaded)} / ${formatBytes(total)})\n`);
    },
    finish() {
      if (stream.isTTY) {
        draw();
        stream.write('\n');
      } else if (lastStep < 100) {
        lastStep = 100;
        stream.write(`${label}: 100% (${formatBytes(last.total)} / ${formatBytes(last.total)})\n`);
      }
    },
  };
}
