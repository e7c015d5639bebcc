/**
 * The bytes of a Memory page's live stream (Server-Sent Events). It carries only
 * "changed" with the new version as the event's id — never a fact — so nothing a
 * person may not see can travel in it; the page then reads itself again through
 * the rules. Heartbeat comments keep proxies from cutting an idle stream.
 */
import { HEARTBEAT_MS, type LiveListener, type LiveVersion, type MemoryWatcher } from "./memory-watcher";

/** How long a browser waits before it reconnects (it then sends Last-Event-ID). */
export const RETRY_MS = 2000;

export type StreamFor = Omit<LiveListener, "changed" | "ended" | "tick">;

const utf8 = new TextEncoder();

export function changedEvent(version: LiveVersion): string {
  return `id: ${version}\nevent: changed\ndata: changed\n\n`;
}

/**
 * A stream for one open page; it ends when the browser goes away or the watcher says the person may no longer look.
 * `heartbeatMs` is shorter only in tests (a proxy's idle timeout of a second instead of a minute).
 */
export function liveStream(
  watcher: MemoryWatcher,
  stream: StreamFor,
  signal: AbortSignal,
  heartbeatMs: number = HEARTBEAT_MS,
): ReadableStream<Uint8Array> {
  let stop = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let lastWrite = Date.now();
      let open = true;
      const write = (text: string) => {
        if (!open) return;
        lastWrite = Date.now();
        try {
          controller.enqueue(utf8.encode(text));
        } catch {
          // The browser is already gone.
          close();
        }
      };
      const close = () => {
        if (!open) return;
        open = false;
        unsubscribe();
        try {
          controller.close();
        } catch {
          // Already closed by a cancel.
        }
      };
      write(`retry: ${RETRY_MS}\n: live\n\n`);
      const unsubscribe = watcher.subscribe({
        ...stream,
        changed: (version) => write(changedEvent(version)),
        ended: () => {
          write("event: ended\ndata: ended\n\n");
          close();
        },
        tick: (now) => {
          if (now - lastWrite >= heartbeatMs) write(": heartbeat\n\n");
        },
      });
      stop = close;
      if (signal.aborted) close();
      else signal.addEventListener("abort", close, { once: true });
    },
    cancel() {
      stop();
    },
  });
}
