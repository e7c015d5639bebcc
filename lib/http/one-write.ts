/**
 * A response's bytes leave in one system call instead of three. Next answers a
 * route handler (every API call, /api/health included) with chunked encoding and
 * writes it to the socket in separate calls: the headers, then the body, then the
 * chunks' end; it drops a Content-Length the handler sets. On loopback each call
 * also wakes the reader: at a million facts it was ~50–80 µs of the serving
 * thread's CPU a recall (BENCHMARKS.md, the twenty-fifth session).
 *
 * So from a response's first write until the event loop's next turn, its socket
 * holds what is written (cork) and then sends it together (uncork). Next writes a
 * whole answer within one turn; a live stream's later events are written on later
 * turns, each sent at the end of its own, so none waits for the next. Backpressure
 * is unchanged: write() still says when the socket's buffer is full.
 */
import type http from "node:http";

const SENDS = ["flushHeaders", "write", "end"] as const;

/** Makes `response` send each turn's writes together; the edge (edge.ts) calls it for every request. */
export function sendInOneWrite(response: http.ServerResponse): void {
  let holding = false;
  const hold = () => {
    const socket = response.socket;
    if (holding || !socket) return;
    holding = true;
    socket.cork();
    setImmediate(() => {
      holding = false;
      // An ended socket has sent what it held already (end() uncorks), and a second uncork does nothing.
      socket.uncork();
    });
  };
  for (const name of SENDS) {
    const send = response[name] as (...args: unknown[]) => unknown;
    Object.defineProperty(response, name, {
      configurable: true,
      writable: true,
      value: function (this: http.ServerResponse, ...args: unknown[]) {
        hold();
        return send.apply(this, args);
      },
    });
  }
}
