/**
 * The remote row (issue #19): the production server on an `http://` DATABASE_URL,
 * the database behind the libSQL stand-in (bench/hrana-stand-in.ts) in a process of
 * its own on loopback, so the cost of the network hop — every query a Hrana round
 * trip — shows beside the embedded numbers of the same data. The floor, recall
 * (without and with a question) and remember, in alternating slices as for the file:
 * the last two at c16 only, remember followed by a pause until the server settles.
 *
 * The stand-in is JavaScript over the same libSQL file, not sqld: its own CPU per
 * request is reported apart, and it shares the machine's cores with the app server.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { alternate, health, measureCpuOf, recall, recallWithQuestions, remember, type LoadResult, QuestionLoad, recallRequests } from "./load";
import type { BenchData } from "./generate";
import { rssMb, startServer } from "./server";

export type RemoteResult = {
  /** Per concurrency: the floor (no query), recall, and recall with q at c16 only; each with the stand-in's CPU a request. */
  load: { concurrency: number; health: LoadResult; recall: LoadResult; recallQ?: LoadResult }[];
  remember: LoadResult;
  /** The stand-in's RSS at the end (MB). */
  standInRssMb: number;
};

type StandIn = { url: string; pid: number; stop: () => Promise<void> };

async function startStandIn(file: string): Promise<StandIn> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "bench/hrana-stand-in.ts", file], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
  if (first.done || !/^http:\/\/127\.0\.0\.1:\d+$/.test(first.value)) throw new Error(`The stand-in did not start (${first.value ?? "no output"})`);
  return {
    url: first.value,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * Measures the remote row on `file` (a fresh, migrated copy of the size's data: the
 * stand-in serves it in place). `port` is the app server's.
 */
export async function measureRemote(options: {
  file: string;
  data: BenchData;
  port: number;
  seconds: number;
  rounds: number;
  runId: string;
}): Promise<RemoteResult> {
  const { file, data, port, seconds, rounds, runId } = options;
  const standIn = await startStandIn(file);
  try {
    const server = await startServer({ dbUrl: standIn.url, port, rateLimit: 1_000_000 });
    try {
      // Each load counts the stand-in's CPU too, and a remember slice waits for both to settle.
      measureCpuOf(server.pid, standIn.pid);
      const requests = recallRequests(data.recallers);
      const questions = new QuestionLoad(data.recallers);
      // Warm-up: each load once, so the server's kept answers and the stand-in's pool are at their working size.
      await health(server.url, 16, 2);
      await recall(server.url, requests, 16, 2);
      await recallWithQuestions(server.url, questions, 16, 2);
      await remember(server.url, data.rememberers, 16, 2, `${runId}-remote-warm`);
      const slices = { requests, rounds, slice: seconds / rounds };
      const c1 = await alternate(server.url, { ...slices, connections: 1 });
      const { remember: remembered, ...c16 } = await alternate(server.url, {
        ...slices,
        connections: 16,
        questions,
        remembers: { rememberers: data.rememberers, run: `${runId}-remote` },
      });
      const load = [{ concurrency: 1, ...c1 }, { concurrency: 16, ...c16 }];
      return { load, remember: remembered!, standInRssMb: rssMb(standIn.pid) };
    } finally {
      await server.stop();
    }
  } finally {
    await standIn.stop();
  }
}
