/**
 * Talking to an OpenAI-compatible embeddings API (OpenAI, Ollama, vLLM,
 * text-embeddings-inference): POST {model, input: [texts]} → data[].embedding.
 * Nothing it answers is trusted: status, JSON, counts, dimensions and every number
 * are checked, and anything wrong — down, slow, a redirect, garbage — comes back as
 * a failure with a reason, never as a throw, so recall can always fall back to words.
 */
import { readCappedStream } from "@/lib/security/capped-body";
import type { EmbeddingsSettings } from "./settings";

export type Embedded = { ok: true; vectors: number[][] } | { ok: false; reason: string };

/** After a failed question, recall skips the provider this long, then tries again. */
export const COOLDOWN_MS = 5_000;
/** Questions whose vectors each process keeps per model: agents ask the same thing turn after turn. */
const QUESTIONS_KEPT = 512;
/** Far above any real answer (32 texts × 3,072 numbers is ~2 MB): a provider streaming forever is cut off. */
const MAX_ANSWER_BYTES = 32 * 2 ** 20;
/** libSQL's vectors hold at most this many numbers. */
const MAX_DIMENSIONS = 65_536;

/** One request for `texts`' vectors, in their order, within `timeoutMs` (connecting, answering and reading). */
export async function requestEmbeddings(settings: EmbeddingsSettings, texts: readonly string[], timeoutMs: number): Promise<Embedded> {
  if (!texts.length) return { ok: true, vectors: [] };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const response = await fetch(settings.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        ...(settings.key ? { authorization: `Bearer ${settings.key}` } : {}),
      },
      body: JSON.stringify({ model: settings.model, input: texts }),
      // The fact text goes only where the operator said: a redirect is a failure, not followed.
      redirect: "manual",
      signal: abort.signal,
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      return failed(`answered with a redirect (HTTP ${response.status}), which Mnemo does not follow`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      return failed(`answered HTTP ${response.status}`);
    }
    const text = await readCapped(response);
    if (text === null) return failed(`answered more than ${MAX_ANSWER_BYTES / 2 ** 20} MB`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return failed("answered something that is not JSON");
    }
    return vectorsIn(parsed, texts.length);
  } catch (error) {
    if (abort.signal.aborted) return failed(`did not answer within ${timeoutMs} ms`);
    return failed(`could not be reached (${transportReason(error)})`);
  } finally {
    clearTimeout(timer);
  }
}

function failed(reason: string): { ok: false; reason: string } {
  return { ok: false, reason: `the embeddings provider ${reason}` };
}

/** The answer's text, or null past MAX_ANSWER_BYTES. */
async function readCapped(response: Response): Promise<string | null> {
  const bytes = await readCappedStream(response.body, MAX_ANSWER_BYTES);
  return bytes === "too_large" ? null : Buffer.from(bytes).toString("utf8");
}

/** The error code under fetch's "fetch failed" (ECONNREFUSED, UND_ERR_SOCKET…): says what happened, holds nothing sent. */
function transportReason(error: unknown): string {
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") return code;
    cause = cause.cause;
  }
  return error instanceof Error ? error.message.split("\n")[0].slice(0, 120) : "unknown error";
}

/** `data[].embedding` checked: one per text (by `index` when given), one dimension for all, every number a finite float32, none all zeros. */
export function vectorsIn(answer: unknown, count: number): Embedded {
  const data = (answer as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return failed("answered JSON without a data list");
  if (data.length !== count) return failed(`answered ${data.length} embeddings for ${count} texts`);
  const vectors: (number[] | undefined)[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const item = data[i] as { index?: unknown; embedding?: unknown } | null;
    const index = item?.index ?? i;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count || vectors[index]) {
      return failed(`answered embeddings whose indexes are not 0 to ${count - 1}, once each`);
    }
    const embedding = item?.embedding;
    if (!Array.isArray(embedding) || !embedding.length || embedding.length > MAX_DIMENSIONS) {
      return failed(`answered an embedding that is not a list of 1 to ${MAX_DIMENSIONS} numbers`);
    }
    let norm = 0;
    for (const value of embedding) {
      // Stored as float32: a number beyond its range would become Infinity there.
      if (typeof value !== "number" || !Number.isFinite(Math.fround(value))) {
        return failed("answered an embedding holding something other than finite numbers");
      }
      norm += value * value;
    }
    // A zero vector has no direction: libSQL's cosine distance of it is NULL.
    if (norm === 0) return failed("answered an embedding of all zeros");
    vectors[index] = embedding as number[];
  }
  const dimensions = vectors[0]!.length;
  if (vectors.some((vector) => vector!.length !== dimensions)) {
    return failed("answered embeddings of different dimensions");
  }
  return { ok: true, vectors: vectors as number[][] };
}

export type QuestionVector = { ok: true; vector: number[] } | { ok: false; reason: string };

/**
 * Recall's side of the provider: a question's vector within the configured timeout,
 * from a small LRU when it was asked before (one request for many recalls of the
 * same question at once). After a failure, COOLDOWN_MS of answering "failed" at
 * once, so a provider that is down costs recall nothing; the first question after
 * it tries again.
 */
export class QuestionEmbedder {
  private readonly kept = new Map<string, Promise<QuestionVector>>();
  private failure: { until: number; reason: string } | null = null;
  /** The model's dimension as first answered: a question of another length could match no fact. */
  private dimensions: number | null = null;

  constructor(
    readonly settings: EmbeddingsSettings,
    private readonly cooldownMs = COOLDOWN_MS,
  ) {}

  async vectorOf(question: string): Promise<QuestionVector> {
    const known = this.kept.get(question);
    if (known) {
      // Most recently used last: Map keeps insertion order.
      this.kept.delete(question);
      this.kept.set(question, known);
      return known;
    }
    if (this.failure && Date.now() < this.failure.until) {
      return { ok: false, reason: `${this.failure.reason} (recall is not waiting for it until it has rested a few seconds)` };
    }
    const asked = this.ask(question);
    this.kept.set(question, asked);
    if (this.kept.size > QUESTIONS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    return asked;
  }

  private async ask(question: string): Promise<QuestionVector> {
    let answer = await requestEmbeddings(this.settings, [question], this.settings.timeoutMs);
    if (answer.ok) {
      const [vector] = answer.vectors;
      this.dimensions ??= vector.length;
      if (vector.length === this.dimensions) {
        this.failure = null;
        return { ok: true, vector };
      }
      answer = failed(`answered ${vector.length} numbers for a question, where it gave ${this.dimensions} before`);
    }
    // Not kept: the next question after the cooldown asks again.
    this.kept.delete(question);
    this.failure = { until: Date.now() + this.cooldownMs, reason: answer.reason };
    return answer;
  }
}

type Shared = { mnemoQuestionEmbedders?: Map<string, QuestionEmbedder> };
// On globalThis, like the recall cache: the bundler may make several copies of this module.
const embedders = ((globalThis as Shared).mnemoQuestionEmbedders ??= new Map());

/** The process's QuestionEmbedder for these settings (its LRU is per model and endpoint). */
export function questionEmbedder(settings: EmbeddingsSettings): QuestionEmbedder {
  const id = JSON.stringify(settings);
  let embedder = embedders.get(id);
  if (!embedder) {
    embedder = new QuestionEmbedder(settings);
    embedders.set(id, embedder);
  }
  return embedder;
}
