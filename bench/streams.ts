/**
 * What open Memory pages cost recall (issue #18): the same recall load at c16
 * with and without 200 live streams (…/memory/live) open on the server, signed in
 * as one person, in alternating slices so other work on the machine weighs on
 * both alike. The goal: recall keeps at least 90 % of its req/s with the streams.
 */
import http from "node:http";
import type { BenchData } from "./generate";
import { combine, recall, type LoadResult } from "./load";
import { signIn } from "./page";

export const STREAMS = 200;

export type StreamsResult = { streams: number; without: LoadResult; with: LoadResult; ratio: number };

type Open = { close: () => void };

/** One live stream, resolved once its first bytes (the retry line) arrive. */
function openStream(url: URL, cookie: string): Promise<Open> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { cookie, accept: "text/event-stream" }, agent: false },
      (response) => {
        if (response.statusCode !== 200) {
          request.destroy();
          reject(new Error(`the live stream answered ${response.statusCode}`));
          return;
        }
        response.once("data", () => resolve({ close: () => request.destroy() }));
        response.on("error", () => undefined);
      },
    );
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

export async function measureStreams(
  url: string,
  data: BenchData,
  requests: Parameters<typeof recall>[1],
  seconds: number,
  rounds: number,
): Promise<StreamsResult> {
  const cookie = await signIn(url, data.page.email, data.page.password);
  const live = new URL(`${url}/w/${data.page.workspaceId}/agents/${data.page.full}/memory/live`);
  const without: LoadResult[] = [];
  const withStreams: LoadResult[] = [];
  const measureWith = async () => {
    const open = await openStreams(live, cookie, STREAMS);
    try {
      withStreams.push(await recall(url, requests, 16, seconds / rounds));
    } finally {
      for (const stream of open) stream.close();
    }
  };
  // Which goes first alternates too: a slice right after another phase, or after opening 200 streams, runs on a differently warm server.
  for (let round = 0; round < rounds; round++) {
    if (round % 2) await measureWith();
    without.push(await recall(url, requests, 16, seconds / rounds));
    if (!(round % 2)) await measureWith();
  }
  const a = combine(without);
  const b = combine(withStreams);
  return { streams: STREAMS, without: a, with: b, ratio: Math.round((b.rps / a.rps) * 100) / 100 };
}
