/** SPEC §8/§9: a lazy page that has not arrived after 120000 ms fails with ChunkLoadError. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** A page's code could not be fetched: offline, timed out, or gone after a redeploy. */
export class ChunkLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof Error && error.name === 'ChunkLoadError';
}

/** Runs a dynamic import with the chunk timeout; any failure becomes a ChunkLoadError. */
export function loadChunk<M>(load: () => Promise<M>, timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS): Promise<M> {
  return new Promise<M>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(`Loading chunk timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(
          isChunkLoadError(error)
            ? error
            : new ChunkLoadError(error instanceof Error ? error.message : String(error), { cause: error }),
        );
      },
    );
  });
}
