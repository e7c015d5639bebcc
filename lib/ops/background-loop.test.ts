/**
 * The background loop the webhook sender and the embedder share: one per name per
 * process, at once again while there is more, a nudge cuts the idle pause, a
 * failure's pause is cut by a nudge only where the loop allows it, and stopping
 * ends any pause. Pauses here are an hour, so only a wake can move the loop on.
 */
import { afterEach, describe, expect, it } from "vitest";
import { nudgeLoop, startLoop, type LoopOptions, type StepResult } from "./background-loop";

const HOUR = 3_600_000;
const options = (over: Partial<LoopOptions> = {}): LoopOptions => ({
  idleMs: HOUR,
  retryMs: () => HOUR,
  nudgeWhileFailing: true,
  events: { failed: "test_loop_failed", recovered: "test_loop_recovered" },
  ...over,
});

let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.map((stop) => stop()));
  stops = [];
});

/** A step that answers from a list (the last answer repeats) and counts its runs. */
function steps(...answers: (StepResult | Error)[]) {
  const counter = {
    runs: 0,
    step: async (): Promise<StepResult> => {
      const answer = answers[Math.min(counter.runs++, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return counter;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("startLoop", () => {
  it("runs at once again while there is more, then waits; a nudge cuts the wait", async () => {
    const counter = steps({ more: true }, { more: true }, { more: false });
    stops.push(startLoop("test-more", counter.step, options()));
    await until(() => counter.runs === 3);
    nudgeLoop("test-more");
    await until(() => counter.runs === 4);
  });

  it("runs once per name in a process: a second start is the first loop", async () => {
    const first = steps({ more: false });
    const second = steps({ more: false });
    stops.push(startLoop("test-once", first.step, options()));
    stops.push(startLoop("test-once", second.step, options()));
    await until(() => first.runs === 1);
    nudgeLoop("test-once");
    await until(() => first.runs === 2);
    expect(second.runs).toBe(0);
  });

  it("a failure, thrown or answered, is retried after a nudge where the loop allows it", async () => {
    const counter = steps(new Error("database is locked"), { failed: "the provider answered HTTP 500" }, { more: false });
    stops.push(startLoop("test-retry", counter.step, options({ nudgeWhileFailing: true })));
    await until(() => counter.runs === 1);
    nudgeLoop("test-retry");
    await until(() => counter.runs === 2);
    nudgeLoop("test-retry");
    await until(() => counter.runs === 3);
  });

  it("resting after a failure ignores nudges, and stopping still ends the rest at once", async () => {
    const counter = steps({ failed: "the provider is down" });
    const retries: number[] = [];
    const stop = startLoop("test-rest", counter.step, options({ nudgeWhileFailing: false, retryMs: (previous) => (retries.push(previous), HOUR) }));
    await until(() => counter.runs === 1);
    nudgeLoop("test-rest");
    await stop();
    expect(counter.runs).toBe(1);
    expect(retries).toEqual([0]);
  });

  it("doubles the pause through retryMs, and starts over after a success", async () => {
    const counter = steps({ failed: "down" }, { failed: "down" }, { more: false }, { failed: "down" });
    const retries: number[] = [];
    stops.push(startLoop("test-backoff", counter.step, options({ retryMs: (previous) => (retries.push(previous), HOUR + previous) })));
    for (let runs = 1; runs < 4; runs++) {
      await until(() => counter.runs === runs);
      nudgeLoop("test-backoff");
    }
    await until(() => counter.runs === 4);
    await until(() => retries.length === 3);
    expect(retries).toEqual([0, HOUR, 0]);
  });
});
