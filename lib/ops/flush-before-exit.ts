/**
 * Work that must finish before a graceful stop ends the process: what a server
 * keeps in memory to write later (recall counts, lib/memory/usage.ts). On SIGTERM
 * Next closes its HTTP server, waits for the requests in flight, then calls
 * process.exit at once — an "exit" listener can no longer wait for a write. So
 * the hook is the server's close callback, which Next awaits: it runs once the
 * last request is answered (nothing more can be counted) and before the exit.
 * Next's server is made inside `next start`, out of reach, hence the prototype,
 * as lib/http/edge.ts does for requests.
 */
import http from "node:http";

const HOOKED = Symbol.for("mnemo.flushBeforeExit");
type Hooked = { [HOOKED]?: (() => Promise<void>)[] };

/**
 * Runs `work` after any HTTP server of this process has closed and before its
 * close callback, so whoever waits for the close (Next, before exiting) waits for
 * it too. A failure is logged, never kept from the callback: a stop must not hang.
 */
export function flushBeforeServerCloses(work: () => Promise<void>): void {
  const server = http.Server.prototype as http.Server & Hooked;
  if (server[HOOKED]) {
    server[HOOKED].push(work);
    return;
  }
  const works = (server[HOOKED] = [work]);
  const close = server.close;
  server.close = function (this: http.Server, callback?: (error?: Error) => void) {
    return close.call(this, (error?: Error) => {
      void Promise.allSettled(works.map((run) => run())).then((results) => {
        for (const result of results) {
          if (result.status === "rejected") {
            const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
            console.error(`[shutdown] ${reason}`);
          }
        }
        callback?.(error);
      });
    });
  };
}
