/**
 * The one shape of the work each server process does in the background (the webhook
 * sender, the embedder): a step, again and again, at once while there is more, else
 * after a short idle pause; a failure is logged once (and its end once), then the
 * step is tried again after a pause of the loop's choosing. A nudge (new work was
 * just queued) cuts the idle pause short; stopping cuts any pause and resolves once
 * the step in progress has finished.
 */
import { errorSummary, log } from "./log";

/** What one step did: `more` when it found a full batch (so the next runs at once), or why it failed. */
export type StepResult = { more: boolean } | { failed: string };

export type LoopOptions = {
  idleMs: number;
  /** The pause after a failure, given the one before it (0 after a success). */
  retryMs: (previousMs: number) => number;
  /** Whether a nudge also cuts a failure's pause short (a sender retries at once; an embedder rests its provider). */
  nudgeWhileFailing: boolean;
  /** The log events for the first failure of a run and for the recovery after it. */
  events: { failed: string; recovered: string };
};

type Loop = { stopped: boolean; wake: (() => void) | null; done: Promise<void> };
// On globalThis: the bundler may make several copies of a module, and each loop must run once per process.
const shared = globalThis as { mnemoBackgroundLoops?: Map<string, Loop> };
const loops = (shared.mnemoBackgroundLoops ??= new Map());

/** Starts the loop named `name` (once per process; a second call is ignored); the answer stops it and resolves when it has. */
export function startLoop(name: string, step: () => Promise<StepResult>, options: LoopOptions): () => Promise<void> {
  const running = loops.get(name);
  if (running) return () => stopLoop(name, running);
  const loop: Loop = { stopped: false, wake: null, done: Promise.resolve() };
  loops.set(name, loop);
  loop.done = run(loop, step, options);
  return () => stopLoop(name, loop);
}

async function stopLoop(name: string, loop: Loop): Promise<void> {
  loop.stopped = true;
  loop.wake?.();
  await loop.done;
  if (loops.get(name) === loop) loops.delete(name);
}

/** Wakes the loop named `name` now, if it runs (and, unless it allows it, is not resting after a failure). */
export function nudgeLoop(name: string): void {
  loops.get(name)?.wake?.();
}

async function run(loop: Loop, step: () => Promise<StepResult>, options: LoopOptions): Promise<void> {
  let retry = 0;
  let failing = false;
  while (!loop.stopped) {
    let result: StepResult;
    try {
      result = await step();
    } catch (error) {
      result = { failed: errorSummary(error) };
    }
    let wait = options.idleMs;
    if ("failed" in result) {
      if (!failing) log("warn", options.events.failed, { reason: result.failed.slice(0, 300) });
      failing = true;
      retry = options.retryMs(retry);
      wait = retry;
    } else {
      if (failing) log("info", options.events.recovered, {});
      failing = false;
      retry = 0;
      if (result.more) wait = 0;
    }
    if (loop.stopped) break;
    const resting = failing && !options.nudgeWhileFailing;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      timer.unref();
      function done() {
        clearTimeout(timer);
        loop.wake = null;
        resolve();
      }
      loop.wake = resting ? () => loop.stopped && done() : done;
    });
  }
}
