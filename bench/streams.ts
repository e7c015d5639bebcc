/**
 * What open Memory pages cost recall (issue #18): the same recall load at c16
 * with and without 200 live streams (…/memory/live) open on the server, signed in
 * as one person, in alternating slices so other work on the machine weighs on
 * both alike. The goal: recall keeps at least 90 % of its req/s with the streams.
 *
 * The streams are not idle: during every slice, with or without them, an agent
 * remembers a fact every half second, so each stream is told "changed" about once
 * a watcher tick — the fan-out is what streams cost. Each stream counts what it
 * receives; a stream that hears nothing in a slice, or closes early, fails the run.
 * The browsers that would refetch their page after each "changed" are not
 * simulated: that is the Memory page's cost, measured on its own.
 */
import http from "node:http";
import { LIVE_INTERVAL_MS } from "@/lib/live/memory-watcher";
import type { BenchData } from "./generate";
import { combine, recall, type LoadResult } from "./load";
import { median } from "./median";
import { signIn } from "./page";

export const STREAMS = 200;
const CHANGE_EVERY_MS = 500;
/**
 * The shortest slice, in seconds: a stream hears of changes only at the watcher's tick (once a second), and a
 * busy server's timer runs late, so a one-second slice (`--seconds=3`) could see no tick and fail the run.
 */
const MIN_SLICE_SECONDS = (2 * LIVE_INTERVAL_MS) / 1000;

export type StreamsResult = {
  streams: number;
  without: LoadResult;
  with: LoadResult;
  /** Median of the per-round ratios of req/s (with / without, the two slices of a round run back to back). */
  ratio: number;
  /** Each round's ratio, in order: their spread is the measurement's noise. */
  ratios: number[];
  /**
   * The same per round from the server's CPU time per recall (without / with): what the streams cost
   * the server, whatever else runs on the machine, as a share of throughput when recall is CPU-bound.
   */
  cpuRatio: number;
  cpuRatios: number[];
  /** The fewest "changed" events one stream received in one slice, and the mean per stream per slice. */
  events: { min: number; mean: number };
  /** Facts remembered during the phase (the changes the streams were told of). */
  changes: number;
};

type Open = { events: () => number; closedEarly: () => boolean; close: () => void };

/** One live stream, resolved once its first bytes (the retry line) arrive; it counts the "changed" events it receives. */
function openStream(url: URL, cookie: string): Promise<Open> {
  return new Promise((resolve, reject) => {
    let events = 0;
    let closing = false;
    let closedEarly = false;
    const request = http.get(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { cookie, accept: "text/event-stream" }, agent: false },
      (response) => {
        if (response.statusCode !== 200) {
          request.destroy();
          reject(new Error(`the live stream answered ${response.statusCode}`));
          return;
        }
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          events += chunk.split("event: changed").length - 1;
          resolve({ events: () => events, closedEarly: () => closedEarly, close: () => ((closing = true), request.destroy()) });
        });
        response.on("close", () => (closedEarly ||= !closing));
        response.on("error", () => undefined);
      },
    );
    // Once resolved, a later error only marks the stream closed (reject is then a no-op).
    request.on("error", reject);
  });
}

async function openStreams(url: URL, cookie: string, n: number): Promise<Open[]> {
  const open: Open[] = [];
  // In batches, as pages would open over a moment rather than in one instant.
  for (let i = 0; i < n; i += 20) {
    open.push(...(await Promise.all(Array.from({ length: Math.min(20, n - i) }, () => openStream(url, cookie)))));
  }
  return open;
}

/** An agent remembering a fact every CHANGE_EVERY_MS, through the API, until stopped; stop() answers how many. */
function changes(url: string, data: BenchData, run: string): { stop: () => Promise<number> } {
  const { agent, places } = data.rememberers[0];
  let n = 0;
  let failed: Error | null = null;
  const sent: Promise<void>[] = [];
  const timer = setInterval(() => {
    const place = places[n % places.length];
    const i = n++;
    const body = { channel: place.channel, asker: place.asker ?? undefined, fact: `Live bench ${run} change ${i}: the deploy of ${i % 11} finished` };
    sent.push(
      fetch(`${url}/api/v1/memories`, {
        method: "POST",
        headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(
        async (response) => {
          await response.arrayBuffer();
          if (!response.ok) failed ??= new Error(`remember for the live streams answered ${response.status}`);
        },
        (error: Error) => void (failed ??= error),
      ),
    );
  }, CHANGE_EVERY_MS);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(sent);
      if (failed) throw failed;
      return n;
    },
  };
}

export async function measureStreams(
  url: string,
  data: BenchData,
  requests: Parameters<typeof recall>[1],
  sliceSeconds: number,
  rounds: number,
  run: string,
): Promise<StreamsResult> {
  const slice = Math.max(sliceSeconds, MIN_SLICE_SECONDS);
  const cookie = await signIn(url, data.page.email, data.page.password);
  // The streams follow the agent that the changes go to.
  const live = new URL(`${url}/w/${data.page.workspaceId}/agents/${data.rememberers[0].agent.handle}/memory/live`);
  const without: LoadResult[] = [];
  const withStreams: LoadResult[] = [];
  const perStream: number[] = [];
  const changing = changes(url, data, run);
  let changed = 0;
  try {
    const measureWith = async () => {
      const open = await openStreams(live, cookie, STREAMS);
      try {
        const before = open.map((stream) => stream.events());
        withStreams.push(await recall(url, requests, 16, slice));
        const heard = open.map((stream, i) => stream.events() - before[i]);
        if (open.some((stream) => stream.closedEarly())) throw new Error("a live stream closed during the slice");
        if (Math.min(...heard) === 0) throw new Error("a live stream heard no change during the slice");
        perStream.push(...heard);
      } finally {
        for (const stream of open) stream.close();
      }
    };
    // Which goes first alternates too: a slice right after another phase, or after opening 200 streams, runs on a differently warm server.
    for (let round = 0; round < rounds; round++) {
      if (round % 2) await measureWith();
      without.push(await recall(url, requests, 16, slice));
      if (!(round % 2)) await measureWith();
    }
  } finally {
    changed = await changing.stop();
  }
  const round2 = (x: number) => Math.round(x * 100) / 100;
  const ratios = without.map((slice, i) => round2(withStreams[i].rps / slice.rps));
  const cpuRatios = without.map((slice, i) => round2(slice.cpuUsPerRequest / withStreams[i].cpuUsPerRequest));
  return {
    streams: STREAMS,
    without: combine(without),
    with: combine(withStreams),
    ratio: median(ratios),
    ratios,
    cpuRatio: median(cpuRatios),
    cpuRatios,
    events: { min: Math.min(...perStream), mean: Math.round((perStream.reduce((a, b) => a + b, 0) / perStream.length) * 10) / 10 },
    changes: changed,
  };
}
