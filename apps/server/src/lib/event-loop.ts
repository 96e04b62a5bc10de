/** Lets the event loop run what is waiting (I/O, timers, other requests) before going on: node:sqlite runs on it. */
export const yieldToEventLoop = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
