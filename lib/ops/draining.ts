/**
 * Graceful restarts: on SIGTERM, `npm start` first tells the server to drain. From
 * then on /api/ready answers 503, so a load balancer stops sending new requests,
 * while everything still in flight, or still arriving, is served. After the drain
 * period the server stops listening and exits once its requests are done.
 */
const DRAINING = Symbol.for("mnemo.draining");
const state = globalThis as unknown as { [DRAINING]?: boolean };

/** The message `npm start` sends its server process to begin draining. */
export const DRAIN_MESSAGE = "mnemo:drain";

export function startDraining(): void {
  state[DRAINING] = true;
}

export function isDraining(): boolean {
  return state[DRAINING] === true;
}
