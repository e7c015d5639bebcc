/**
 * Resolves after the event loop has run what was waiting — timers, sockets' input,
 * other threads' messages — not only promises. Work done in steps (the recall counts'
 * batches, a branch read whole) waits here between them: the database driver is
 * synchronous, so an awaited statement alone lets nothing else in.
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
