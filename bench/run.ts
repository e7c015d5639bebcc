/**
 * `npm run bench [-- --full] [--sizes=10000,100000] [--seconds=5] [--cpu-prof]`
 *
 * For each size: generate (or reuse) the data, copy it to a fresh run file, time
 * recall in-process against a bare prepared statement, then start the production
 * server and measure, side by side on the same server: recall without and with a
 * question (`q`, varied per request) and the floor (GET /api/health) at concurrency
 * 1, 16 and 64, with remember in the same slices at 16, the Memory page, and the
 * server's RSS. Then the remote row (bench/remote.ts; `--no-remote` skips it): recall
 * and remember with the same data behind the libSQL stand-in on loopback. Prints a
 * table and writes bench/results/<date>.json.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generate, type BenchData } from "./generate";
import { measureInProcess, type InProcessResult } from "./in-process";
import {
  alternate, checkQuestions, health, measureCpuOf, QuestionLoad, recall, recallRequests, recallWithQuestions, remember,
  type LoadResult, type QuestionCheck,
} from "./load";
import { measurePage, type PageResult } from "./page";
import { measureRemote, type RemoteResult } from "./remote";
import { rssMb, startServer } from "./server";
import { measureStreams, type StreamsResult } from "./streams";
import { goals, printRun } from "./report";
import { openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const full = args.includes("--full");
const sizes = (flag("sizes") ?? (full ? "10000,1000000" : "10000,100000")).split(",").map(Number);
const seconds = Number(flag("seconds") ?? (full ? 15 : 6));
const cpuProf = args.includes("--cpu-prof") ? path.resolve("bench/tmp/prof") : undefined;
const remoteRow = !args.includes("--no-remote");
const TMP = path.resolve("bench/tmp");
const CONCURRENCY = [1, 16, 64];
/** Alternating slices per load: more in a full run, so drift on the shared machine averages out. */
const ROUNDS = full ? 5 : 3;
/** The rounds of `alternate`: ROUNDS slices of each load, as long in all as one load's `seconds`. */
const IN_ROUNDS = { rounds: ROUNDS, slice: seconds / ROUNDS };
/** Bump when the generator changes, so old data files are not reused. */
const DATA_VERSION = 4;

export type SizeResult = {
  facts: number;
  workspaces: number;
  generateSeconds: number | null;
  inProcess: InProcessResult;
  /** Per concurrency: the floor, recall without a question, and recall with one (`recallQ`), in alternating slices. */
  load: { concurrency: number; health: LoadResult; recall: LoadResult; recallQ?: LoadResult }[];
  /** Recall with q: a sample of answers checked, and the share of requests that repeated one (the most the answer cache could serve). */
  questions?: { check: QuestionCheck; repeatShare: number };
  /** Recall at c16 on a server that keeps no answers: every request derives the place and reads the facts, as after a change. */
  recallNothingKept: { health: LoadResult; recall: LoadResult };
  /** Remember at c16, in the same alternating slices as the c16 loads its goals compare it with. */
  remember: LoadResult;
  page: PageResult;
  /** Recall at c16 with and without 200 open live streams of the Memory page (#18), told of a change twice a second. */
  streams?: StreamsResult;
  /** The same data behind the libSQL stand-in on loopback, the server at an http:// URL (#19). */
  remote?: RemoteResult;
  /** The server's RSS after warm-up and at the end, and after each phase on the way (MB). */
  rss: { afterWarmUpMb: number; afterMb: number; timeline: { after: string; mb: number }[] };
};

async function dataFor(size: number): Promise<{ data: BenchData; file: string; generateSeconds: number | null }> {
  const template = path.join(TMP, `facts-${size}-v${DATA_VERSION}.db`);
  const meta = `${template}.json`;
  let generateSeconds: number | null = null;
  if (!existsSync(meta)) {
    rmSync(template, { force: true });
    console.log(`Generating ${size.toLocaleString("en-US")} facts…`);
    const t = performance.now();
    const data = await generate(`file:${template}`, size);
    generateSeconds = Math.round((performance.now() - t) / 100) / 10;
    writeFileSync(meta, JSON.stringify(data));
    console.log(`  done in ${generateSeconds} s`);
  }
  const file = await freshCopy(template, `run-${size}.db`);
  return { data: JSON.parse(readFileSync(meta, "utf8")) as BenchData, file, generateSeconds };
}

/** A migrated copy of a size's generated data, under `name` in bench/tmp. */
async function freshCopy(template: string, name: string): Promise<string> {
  const file = path.join(TMP, name);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  copyFileSync(template, file);
  // A file generated before a later migration gets it now, as the app's own start would (the server migrates too, but the in-process step comes first).
  const db = await openDatabase(`file:${file}`);
  await migrateDatabase(db);
  db.$client.close();
  return file;
}

async function measureSize(size: number, port: number, runId: string): Promise<SizeResult> {
  const { data, file, generateSeconds } = await dataFor(size);
  const url = `file:${file}`;
  console.log(`[${size}] in-process recall vs bare statement…`);
  const inProcess = await measureInProcess(url, file, data, seconds);
  console.log(`[${size}] starting the server…`);
  const server = await startServer({ dbUrl: url, port, rateLimit: 1_000_000, cpuProf });
  try {
    measureCpuOf(server.pid);
    const requests = recallRequests(data.recallers);
    const questions = new QuestionLoad(data.recallers);
    const check = await checkQuestions(server.url, questions);
    console.log(`[${size}] questions: ${check.rankedByQuestion}/${check.asked} ranked by the question, ${check.withAMatch} with a match; e.g. ${check.examples[0] ?? "none"}`);
    // Warm-up: every load the run makes, at every concurrency, so "after warm-up" is a process at its working size.
    const timeline: { after: string; mb: number }[] = [];
    const mark = (after: string) => {
      const mb = rssMb(server.pid());
      timeline.push({ after, mb });
      return mb;
    };
    mark("start");
    // As long as one measured slice: V8 grows its heap over the first thousands of requests before it levels off.
    const warmSeconds = Math.max(2, IN_ROUNDS.slice);
    for (const c of CONCURRENCY) {
      await health(server.url, c, warmSeconds);
      await recall(server.url, requests, c, warmSeconds);
      await recallWithQuestions(server.url, questions, c, warmSeconds);
    }
    await remember(server.url, data.rememberers, 16, 2, `${runId}-${size}-warm`);
    await measurePage(server.url, data, 5);
    const afterWarmUpMb = mark("warm-up");
    const load: SizeResult["load"] = [];
    let rem: LoadResult | undefined;
    for (const c of CONCURRENCY) {
      console.log(`[${size}] health and recall at concurrency ${c}${c === 16 ? ", and remember" : ""}…`);
      // Remember's goals compare it with recall at c16, so it takes its slices in the same rounds.
      const remembers = c === 16 ? { rememberers: data.rememberers, run: `${runId}-${size}` } : undefined;
      const { remember: remembered, ...loads } = await alternate(server.url, { ...IN_ROUNDS, requests, connections: c, questions, remembers });
      rem = remembered ?? rem;
      load.push({ concurrency: c, ...loads });
      mark(`c${c}`);
    }
    console.log(`[${size}] Memory page…`);
    const page = await measurePage(server.url, data, full ? 40 : 15);
    mark("Memory page");
    console.log(`[${size}] recall with and without 200 open live streams…`);
    // Three times the rounds of the other loads: a ratio per round, and the phase's result is their median.
    const streams = await measureStreams(server.url, data, requests, IN_ROUNDS.slice, 3 * ROUNDS, `${runId}-${size}`);
    const afterMb = mark("live streams");
    await server.stop();
    const recallNothingKept = await measureNothingKept(size, url, port, requests);
    let remote: RemoteResult | undefined;
    if (remoteRow) {
      console.log(`[${size}] recall and remember through the libSQL stand-in…`);
      // Its own copy: the embedded run's remembers are not in it.
      const remoteFile = await freshCopy(path.join(TMP, `facts-${size}-v${DATA_VERSION}.db`), `remote-${size}.db`);
      remote = await measureRemote({ file: remoteFile, data, port, seconds, rounds: ROUNDS, runId });
    }
    return {
      facts: data.facts, workspaces: data.workspaces, generateSeconds, inProcess, load, questions: { check, repeatShare: questions.repeatShare() },
      remember: rem!, page, streams, recallNothingKept, remote, rss: { afterWarmUpMb, afterMb, timeline },
    };
  } finally {
    await server.stop();
  }
}

/** The same recall load on a server started with MNEMO_RECALL_CACHE_MB=0, beside its own floor. */
async function measureNothingKept(size: number, url: string, port: number, requests: ReturnType<typeof recallRequests>) {
  console.log(`[${size}] recall with nothing kept…`);
  const server = await startServer({ dbUrl: url, port, rateLimit: 1_000_000, env: { MNEMO_RECALL_CACHE_MB: "0" } });
  try {
    measureCpuOf(server.pid);
    await recall(server.url, requests, 16, 2);
    return await alternate(server.url, { ...IN_ROUNDS, requests, connections: 16 });
  } finally {
    await server.stop();
  }
}

async function main() {
  mkdirSync(TMP, { recursive: true });
  const started = new Date();
  const runId = started.toISOString().replace(/[:.]/g, "-").slice(0, 19);
  const results: SizeResult[] = [];
  for (const [i, size] of sizes.entries()) results.push(await measureSize(size, 3190 + i, runId));
  const run = {
    date: started.toISOString(),
    mode: full ? "full" : "quick",
    secondsPerLoad: seconds,
    machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    sizes: results,
    goals: goals(results),
  };
  printRun(run);
  mkdirSync("bench/results", { recursive: true });
  const out = path.join("bench/results", `${runId}.json`);
  writeFileSync(out, `${JSON.stringify(run, null, 2)}\n`);
  console.log(`\nWrote ${out}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
