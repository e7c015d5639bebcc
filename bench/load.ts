/**
 * Load over HTTP with autocannon's programmatic API: a list of requests that the
 * connections cycle through, and the numbers the report needs.
 */
import autocannon from "autocannon";
import type { BenchAgent, Place } from "./generate";
import { seeded } from "./fact-words";
import { questionPool } from "./questions";
import { cpuMs } from "./server";

export type LoadResult = {
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The server's CPU time (user + system) per request, in µs: what a request costs, whoever else uses the machine. */
  cpuUsPerRequest: number;
  /** The same for the libSQL stand-in, when the server's database is behind one (bench/remote.ts). */
  standInCpuUsPerRequest?: number;
  /** Slices combined (`combine`): each slice's own p99, beside the p99 of all their requests above. */
  sliceP99s?: number[];
};

/** Each slice's latencies, sorted, for `combine` to pool; beside the results, not in them (the JSON stays small). */
const latenciesOf = new WeakMap<LoadResult, readonly number[]>();

let serverPid: (() => number) | null = null;
let standInPid: number | null = null;

/** The process whose CPU time each load reports, and the libSQL stand-in's beside it when there is one. */
export function measureCpuOf(pid: () => number, standIn: number | null = null): void {
  serverPid = pid;
  standInPid = standIn;
}

/** CPU time in µs per request of `pid` since `before` (ms), for a load of `requests`. */
const perRequest = (pid: number, before: number, requests: number) => Math.round(((cpuMs(pid) - before) * 1000) / Math.max(1, requests));

type Req = autocannon.Request;

/**
 * Waits until the server (and the libSQL stand-in, if any) has been nearly idle (under a tenth of a core)
 * for 100 ms, up to `most` ms, and says how long that took: a remember slice leaves the WAL's checkpoint and
 * collections running after its last answer, and the slice after it should not pay for them.
 */
async function settle(most = 3_000): Promise<number> {
  const server = serverPid?.();
  const pids = [...(server ? [server] : []), ...(standInPid ? [standInPid] : [])];
  if (!pids.length) return 0;
  const cpu = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const start = performance.now();
  let before = cpu();
  while (performance.now() - start < most) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpu();
    if (now - before < 10) break;
    before = now;
  }
  return Math.round(performance.now() - start);
}

async function fire(url: string, connections: number, seconds: number, options: Partial<autocannon.Options>): Promise<LoadResult> {
  const pid = serverPid?.();
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const standIn = standInPid;
  const standInBefore = standIn ? cpuMs(standIn) : 0;
  let load!: autocannon.Instance;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    load = autocannon({ url, connections, duration: seconds, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
  // Latency on open connections: a connection's first answer is left out, since autocannon writes its request to the
  // socket before it has connected, with the clock running, while it is still setting up the other connections, and
  // that wait landed in each slice's p99 as the server's (BENCHMARKS.md, Method).
  const latencies: number[] = [];
  const connected = new WeakSet<autocannon.Client>();
  load.on("response", (client, _status, _bytes, ms) => {
    if (connected.has(client)) latencies.push(ms);
    else connected.add(client);
  });
  const result = await done;
  const requests = result.requests.total;
  latencies.sort((a, b) => a - b);
  const slice: LoadResult = {
    connections,
    requests,
    rps: Math.round(result.requests.average),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuUsPerRequest: pid ? perRequest(pid, cpuBefore, requests) : NaN,
    ...(standIn ? { standInCpuUsPerRequest: perRequest(standIn, standInBefore, requests) } : {}),
  };
  latenciesOf.set(slice, latencies);
  return slice;
}

/** The latency (ms, to 0.1) below which `share` of the sorted `latencies` fall (nearest rank); 0 for none. */
function percentile(latencies: readonly number[], share: number): number {
  if (!latencies.length) return 0;
  const at = Math.min(latencies.length - 1, Math.max(0, Math.ceil(share * latencies.length) - 1));
  return Math.round(latencies[at] * 10) / 10;
}

/**
 * Slices of one load as one result: their mean rate, and the percentiles of all their requests together. Until the
 * thirtieth session p50 and p99 were the median of the slices' own; a 3 s slice's p99 is its ~30th slowest answer, and
 * the same code moved it by half its value from slice to slice, so verdicts on the p99 goals flipped between runs of
 * the same code. Pooled, the p99 is the load's ~150th slowest of five slices (BENCHMARKS.md, Method).
 */
export function combine(slices: LoadResult[]): LoadResult {
  const all = slices.flatMap((r) => latenciesOf.get(r) ?? []).sort((a, b) => a - b);
  const sum = (pick: (r: LoadResult) => number) => slices.reduce((n, r) => n + pick(r), 0);
  const perRequestOf = (pick: (r: LoadResult) => number) => Math.round(sum((r) => pick(r) * r.requests) / Math.max(1, sum((r) => r.requests)));
  const standIn = slices.every((r) => r.standInCpuUsPerRequest !== undefined);
  return {
    connections: slices[0].connections,
    requests: sum((r) => r.requests),
    rps: Math.round(sum((r) => r.rps) / slices.length),
    p50: percentile(all, 0.5),
    p99: percentile(all, 0.99),
    sliceP99s: slices.map((r) => r.p99),
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
    cpuUsPerRequest: perRequestOf((r) => r.cpuUsPerRequest),
    ...(standIn ? { standInCpuUsPerRequest: perRequestOf((r) => r.standInCpuUsPerRequest!) } : {}),
  };
}

const auth = (agent: BenchAgent) => ({ authorization: `Bearer ${agent.key}` });

/** Recall requests cycling over agents and every kind of place of their workspace. */
export function recallRequests(recallers: { agent: BenchAgent; places: Place[] }[], count = 400): Req[] {
  const requests: Req[] = [];
  for (let i = 0; i < count; i++) {
    const { agent, places } = recallers[i % recallers.length];
    // Stride through places so each kind comes up for each agent.
    const place = places[(i * 7) % places.length];
    const query = new URLSearchParams({ channel: place.channel, ...(place.asker ? { asker: place.asker } : {}) });
    requests.push({ method: "GET", path: `/api/v1/recall?${query}`, headers: auth(agent) });
  }
  return requests;
}

/**
 * Recall with a question: the same agents and places as recallRequests, in the same
 * order, each request with a question drawn at random from a large pool, so a place
 * rarely gets the same question twice. One per server: `repeats` counts over every
 * load made with it, as the server's recall cache would.
 */
export class QuestionLoad {
  private readonly pool = questionPool(20_000);
  /**
   * Requests sent so far, each as one number (its place in the stride and its question's in the pool, which
   * decide its agent and path): a set of the paths themselves kept ~160 bytes a request, a heap that grew without
   * end at ~1,000 requests a second, whose collections took CPU from the server on the same two cores.
   */
  private readonly seen = new Set<number>();
  private readonly draw = seeded(2026);
  private n = 0;
  sent = 0;
  repeats = 0;

  constructor(private readonly recallers: { agent: BenchAgent; places: Place[] }[]) {}

  /** The next request's agent, place, question and path, in the stride recallRequests uses; counted as sent. */
  next(): { agent: BenchAgent; q: string; path: string } {
    const i = this.n++ % 400;
    const { agent, places } = this.recallers[i % this.recallers.length];
    const place = places[(i * 7) % places.length];
    const drawn = Math.floor(this.draw() * this.pool.length);
    const q = this.pool[drawn];
    const path = `/api/v1/recall?${new URLSearchParams({ channel: place.channel, ...(place.asker ? { asker: place.asker } : {}), q })}`;
    const key = i * this.pool.length + drawn;
    this.sent++;
    if (this.seen.has(key)) this.repeats++;
    else this.seen.add(key);
    return { agent, q, path };
  }

  request(): Req {
    return {
      method: "GET",
      path: "/api/v1/recall",
      setupRequest: (request) => {
        const next = this.next();
        return { ...request, path: next.path, headers: auth(next.agent) };
      },
    };
  }

  /** The share of requests that repeated an earlier one: the most the recall cache could have answered. */
  repeatShare(): number {
    return this.sent ? this.repeats / this.sent : 0;
  }
}

export function recallWithQuestions(url: string, load: QuestionLoad, connections: number, seconds: number) {
  return fire(url, connections, seconds, { requests: [load.request()] });
}

/** What the answers to questions look like: a sample asked one at a time, checked to be ranked by the question. */
export type QuestionCheck = { asked: number; rankedByQuestion: number; withAMatch: number; meanConsidered: number; meanFacts: number; examples: string[] };

export async function checkQuestions(url: string, load: QuestionLoad, count = 60): Promise<QuestionCheck> {
  const check: QuestionCheck = { asked: 0, rankedByQuestion: 0, withAMatch: 0, meanConsidered: 0, meanFacts: 0, examples: [] };
  for (let i = 0; i < count; i++) {
    const next = load.next();
    const response = await fetch(url + next.path, { headers: auth(next.agent) });
    if (!response.ok) throw new Error(`Recall with q answered ${response.status}: ${await response.text()}`);
    const answer = (await response.json()) as { ranking: string; considered: number; facts: { body: string; why: { score: number | null } }[] };
    check.asked++;
    if (answer.ranking.startsWith("question")) check.rankedByQuestion++;
    const top = answer.facts.find((fact) => fact.why.score !== null);
    if (top) check.withAMatch++;
    check.meanConsidered += answer.considered / count;
    check.meanFacts += answer.facts.length / count;
    if (check.examples.length < 3 && top) check.examples.push(`${next.q} → ${top.body}`);
  }
  check.meanConsidered = Math.round(check.meanConsidered);
  check.meanFacts = Math.round(check.meanFacts);
  return check;
}

export function recall(url: string, requests: Req[], connections: number, seconds: number) {
  return fire(url, connections, seconds, { requests: [inTurn(requests)] });
}

/**
 * One request that is each of `requests` in turn, made as it is sent (as recall with q's
 * are). Given the list itself, autocannon builds every request of it for each connection,
 * synchronously, when a load starts: 78–94 ms for 400 requests and 16 connections, against
 * 6–20 for one. Each connection's first request is already written to its socket, not yet
 * connected, with its latency clock running, so each slice's first answers counted that
 * wait as the server's: the server saw its first request of a slice ~100 ms after the load
 * began, idle until then, and answered it in ~1 ms (BENCHMARKS.md, Method).
 */
function inTurn(requests: Req[]): Req {
  let n = 0;
  return {
    method: "GET",
    path: requests[0].path,
    setupRequest: (request) => {
      const next = requests[n++ % requests.length];
      return { ...request, path: next.path, headers: next.headers };
    },
  };
}

export function health(url: string, connections: number, seconds: number) {
  return fire(url, connections, seconds, { requests: [{ method: "GET", path: "/api/health" }] });
}

/** Remember with unique texts, spread over agents with room, through the same places. */
export function remember(url: string, rememberers: { agent: BenchAgent; places: Place[] }[], connections: number, seconds: number, run: string) {
  let n = 0;
  return fire(url, connections, seconds, {
    requests: [
      {
        method: "POST",
        path: "/api/v1/memories",
        setupRequest: (request) => {
          const i = n++;
          const { agent, places } = rememberers[i % rememberers.length];
          const place = places[(i * 5) % places.length];
          return {
            ...request,
            headers: { ...auth(agent), "content-type": "application/json" },
            body: JSON.stringify({ channel: place.channel, asker: place.asker ?? undefined, fact: `Bench ${run} note ${i}: the build of ${i % 13} passed` }),
          };
        },
      },
    ],
  });
}

/** The loads `alternate` takes turns with, and what it answers with: each load's slices combined. */
export type Rounds = { health: LoadResult; recall: LoadResult; recallQ?: LoadResult; remember?: LoadResult };

/**
 * The floor and recall (with `questions`, recall with q; with `remembers`, remember) at `connections`, in
 * `rounds` alternating slices of `slice` seconds, so other work on the machine weighs on each alike. After each
 * remember slice it waits for the server (and the stand-in) to settle. Remember took one load of its own after all the
 * others until the twenty-sixth session: drift of the shared machine between the two then moved its ratio to
 * recall from 37 % to 82 % across runs of the same code (BENCHMARKS.md).
 */
export async function alternate(
  url: string,
  options: {
    requests: Req[];
    connections: number;
    rounds: number;
    slice: number;
    questions?: QuestionLoad;
    /** Each slice its own texts (`run` and the round), so no remember refreshes an earlier one's fact. */
    remembers?: { rememberers: { agent: BenchAgent; places: Place[] }[]; run: string };
  },
): Promise<Rounds> {
  const { requests, connections: c, rounds, slice, questions, remembers } = options;
  const h: LoadResult[] = [];
  const r: LoadResult[] = [];
  const q: LoadResult[] = [];
  const m: LoadResult[] = [];
  const settled: number[] = [];
  for (let round = 0; round < rounds; round++) {
    h.push(await health(url, c, slice));
    r.push(await recall(url, requests, c, slice));
    if (questions) q.push(await recallWithQuestions(url, questions, c, slice));
    if (remembers) {
      m.push(await remember(url, remembers.rememberers, c, slice, `${remembers.run}-${round}`));
      settled.push(await settle());
    }
  }
  if (settled.length) console.log(`  after each remember slice the server settled in ${settled.join(", ")} ms`);
  return {
    health: combine(h),
    recall: combine(r),
    ...(questions ? { recallQ: combine(q) } : {}),
    ...(remembers ? { remember: combine(m) } : {}),
  };
}
