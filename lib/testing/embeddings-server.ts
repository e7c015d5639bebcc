/**
 * A real embeddings provider for tests: an HTTP server on 127.0.0.1 (a random port)
 * speaking the OpenAI embeddings protocol (POST …/embeddings, {model, input} →
 * {data: [{index, embedding}]}) with deterministic vectors, and switches to make it
 * misbehave the ways real providers do.
 *
 * The vectors (testVector): text is folded (lower case, no diacritics), split into
 * words, a few stop words dropped and a plural "s" cut; each word adds itself, its
 * character trigrams (weakly, so a typo stays close) and — strongly — its synonym
 * class from SYNONYMS below, so "what language should I answer in" lands near "Ana
 * prefers replies in Portuguese" without sharing a word. Features are hashed with a
 * sign into DIMENSIONS numbers and the vector is scaled to length 1. Same text, same
 * vector, every time.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export const DIMENSIONS = 64;

/** Small meaning classes: words in one class embed close together. */
export const SYNONYMS: Record<string, readonly string[]> = {
  language: ["language", "portuguese", "english", "spanish", "french", "german", "tongue", "locale"],
  reply: ["reply", "replie", "answer", "respond", "response"],
  refund: ["refund", "reimburse", "reimbursement", "chargeback", "repay", "money"],
  approval: ["approval", "approve", "approved", "permission", "signoff", "authorize", "manager"],
  release: ["release", "ship", "deploy", "launch", "rollout"],
  weekday: ["monday", "tuesday", "wednesday", "thursday", "friday", "weekday"],
  meeting: ["meeting", "standup", "sync", "call"],
};
const CLASS_OF = new Map(Object.entries(SYNONYMS).flatMap(([name, words]) => words.map((word) => [word, name] as const)));
const STOP_WORDS = new Set(
  "a an the in on at to of for and or is are be should do does what when who how i we you it my our your with by".split(" "),
);

function hash(feature: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) h = Math.imul(h ^ feature.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The server's vector for `text` (see the header). */
export function testVector(text: string, dimensions = DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const add = (feature: string, weight: number) => {
    const h = hash(feature);
    vector[h % dimensions] += h & 0x80000000 ? -weight : weight;
  };
  const folded = text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  for (const raw of folded.match(/[a-z0-9]+/g) ?? []) {
    if (STOP_WORDS.has(raw)) continue;
    const word = raw.length > 3 && raw.endsWith("s") ? raw.slice(0, -1) : raw;
    add(`w:${word}`, 1);
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.25);
    const group = CLASS_OF.get(word);
    if (group) add(`c:${group}`, 3);
  }
  if (vector.every((value) => value === 0)) add("empty", 1);
  const length = Math.hypot(...vector);
  return vector.map((value) => value / length);
}

export type EmbeddingsServerMode =
  | "ok"
  | "down" // closes the connection without answering
  | "slow" // answers correctly after slowMs
  | "redirect" // 307 to another address
  | "error-status" // 500
  | "not-json"
  | "wrong-count" // one embedding fewer than texts
  | "wrong-dimensions" // the last embedding one number short
  | "not-finite"; // a number JSON.parse reads as Infinity

export type EmbeddingsServer = {
  /** The base URL to configure, http://127.0.0.1:<port>/v1 (the server answers POST <url>/embeddings). */
  url: string;
  mode: EmbeddingsServerMode;
  slowMs: number;
  /** Requests seen (any mode), and texts embedded in answers sent. */
  requests: number;
  texts: number;
  /** The model named by the last request. */
  lastModel: string | null;
  close: () => Promise<void>;
};

/** Starts the server; with `key`, a request without `Authorization: Bearer <key>` gets 401. */
export async function startEmbeddingsServer(options: { key?: string; dimensions?: number } = {}): Promise<EmbeddingsServer> {
  const dimensions = options.dimensions ?? DIMENSIONS;
  const timers = new Set<NodeJS.Timeout>();
  const state: Omit<EmbeddingsServer, "url" | "close"> = { mode: "ok", slowMs: 0, requests: 0, texts: 0, lastModel: null };

  const server = http.createServer(async (request, response) => {
    state.requests++;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(body);
    };
    if (request.method !== "POST" || !request.url?.endsWith("/embeddings")) return send(404, '{"error":"not found"}');
    if (options.key && request.headers.authorization !== `Bearer ${options.key}`) return send(401, '{"error":"unauthorized"}');
    let input: unknown;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { model?: unknown; input?: unknown };
      if (typeof body.model !== "string") return send(400, '{"error":"model"}');
      state.lastModel = body.model;
      input = typeof body.input === "string" ? [body.input] : body.input;
    } catch {
      return send(400, '{"error":"json"}');
    }
    if (!Array.isArray(input) || !input.every((text) => typeof text === "string")) return send(400, '{"error":"input"}');
    const texts = input as string[];
    const answer = (vectors: number[][]) =>
      JSON.stringify({
        object: "list",
        model: state.lastModel,
        data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
      });
    const vectors = texts.map((text) => testVector(text, dimensions));

    switch (state.mode) {
      case "ok":
        state.texts += texts.length;
        return send(200, answer(vectors));
      case "down":
        return request.socket.destroy();
      case "slow": {
        const timer = setTimeout(() => {
          timers.delete(timer);
          state.texts += texts.length;
          if (!response.destroyed) send(200, answer(vectors));
        }, state.slowMs);
        timers.add(timer);
        return;
      }
      case "redirect":
        return send(307, "", { location: `http://127.0.0.1:1${request.url}` });
      case "error-status":
        return send(500, '{"error":"overloaded"}');
      case "not-json":
        return send(200, '{"data": [ oops');
      case "wrong-count":
        return send(200, answer(vectors.slice(1)));
      case "wrong-dimensions":
        return send(200, answer(vectors.map((vector, i) => (i === vectors.length - 1 ? vector.slice(1) : vector))));
      case "not-finite":
        return send(200, answer(vectors).replace(/"embedding":\[[^,\]]+/, '"embedding":[1e999'));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
