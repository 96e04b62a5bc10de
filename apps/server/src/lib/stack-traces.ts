import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A map unused this long is dropped (the next stack formatted reads it again). */
const KEEP_MAP_MS = 60_000;

/**
 * Stack traces of the compiled server (apps/server/dist/main.mjs) point into the TypeScript sources, as with
 * `--enable-source-maps`, but the map is read when a stack is first formatted (an error logged) rather than
 * parsed at start and kept: Node's flag costs the idle server 17 MiB. Does nothing under tsx (no map beside the
 * module) or when Node maps stacks itself.
 */
export function mapStackTracesLazily(moduleUrl: string): void {
  if (process.sourceMapsEnabled || !moduleUrl.startsWith('file:')) return;
  const mapFile = `${fileURLToPath(moduleUrl)}.map`;
  if (!fs.existsSync(mapFile)) return;
  const mapDir = path.dirname(mapFile);
  let map: SourceMap | null = null;
  let dropTimer: NodeJS.Timeout | null = null;

  const sourceMap = (): SourceMap | null => {
    try {
      map ??= new SourceMap(JSON.parse(fs.readFileSync(mapFile, 'utf8')));
    } catch {
      return null;
    }
    if (dropTimer) dropTimer.refresh();
    else {
      dropTimer = setTimeout(() => {
        map = null;
        dropTimer = null;
      }, KEEP_MAP_MS);
      dropTimer.unref();
    }
    return map;
  };

  const mapFrame = (frame: NodeJS.CallSite): string => {
    const text = String(frame);
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if (frame.getFileName() !== moduleUrl || line === null || column === null) return text;
    const entry = sourceMap()?.findEntry(line - 1, column - 1);
    if (!entry || !('originalSource' in entry)) return text;
    const source = path.resolve(mapDir, entry.originalSource);
    return text.replace(
      `${moduleUrl}:${line}:${column}`,
      `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`,
    );
  };

  Error.prepareStackTrace = (error: Error, frames: NodeJS.CallSite[]) => {
    let head: string;
    try {
      head = Error.prototype.toString.call(error);
    } catch {
      head = 'Error';
    }
    return [head, ...frames.map((frame) => `    at ${mapFrame(frame)}`)].join('\n');
  };
}
