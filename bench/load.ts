/**
 * Load over HTTP with autocannon's programmatic API: a list of requests that the
 * connections cycle through, and the numbers the report needs.
 */
import autocannon from "autocannon";
import type { BenchAgent, Place } from "./generate";
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
};

let serverPid: (() => number) | null = null;

/** The process whose CPU time each load reports. */
export function measureCpuOf(pid: () => number): void {
  serverPid = pid;
}

type Req = autocannon.Request;

async function fire(url: string, connections: number, seconds: number, options: Partial<autocannon.Options>): Promise<LoadResult> {
  const pid = serverPid?.();
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const result = await autocannon({ url, connections, duration: seconds, ...options });
  const cpu = pid ? cpuMs(pid) - cpuBefore : NaN;
  return {
    connections,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuUsPerRequest: Math.round((cpu * 1000) / Math.max(1, result.requests.total)),
  };
}

/** Slices of one load as one result: their total rate, and the median of their percentiles. */
export function combine(slices: LoadResult[]): LoadResult {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const sum = (pick: (r: LoadResult) => number) => slices.reduce((n, r) => n + pick(r), 0);
  return {
    connections: slices[0].connections,
    requests: sum((r) => r.requests),
    rps: Math.round(sum((r) => r.rps) / slices.length),
    p50: median(slices.map((r) => r.p50)),
    p99: median(slices.map((r) => r.p99)),
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
    cpuUsPerRequest: Math.round(sum((r) => r.cpuUsPerRequest * r.requests) / Math.max(1, sum((r) => r.requests))),
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

export function recall(url: string, requests: Req[], connections: number, seconds: number) {
  return fire(url, connections, seconds, { requests });
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
