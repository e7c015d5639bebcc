/**
 * The provider client against a real local server (lib/testing/embeddings-server.ts)
 * in every way a provider misbehaves: each is a failure with a reason, within the
 * timeout, never a throw; and the question path rests after a failure, then tries again.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startEmbeddingsServer, testVector, type EmbeddingsServer, type EmbeddingsServerMode } from "@/lib/testing/embeddings-server";
import { COOLDOWN_MS, QuestionEmbedder, requestEmbeddings, vectorsIn } from "./provider";
import { embeddingsEndpoint, embeddingsSettings, type EmbeddingsSettings } from "./settings";

let server: EmbeddingsServer;
let settings: EmbeddingsSettings;
// Long enough that a healthy loopback answer on a busy two-core machine never misses it.
const TIMEOUT_MS = 1_000;

beforeAll(async () => {
  server = await startEmbeddingsServer({ key: "sk-test" });
  settings = { endpoint: embeddingsEndpoint(server.url), model: "test-model", key: "sk-test", timeoutMs: TIMEOUT_MS };
});
afterAll(() => server.close());
afterEach(() => {
  server.mode = "ok";
  vi.useRealTimers();
});

describe("settings", () => {
  it.each([
    ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1/embeddings"],
    ["http://127.0.0.1:11434/v1/", "http://127.0.0.1:11434/v1/embeddings"],
    ["https://api.openai.com/v1/embeddings", "https://api.openai.com/v1/embeddings"],
    ["http://tei.internal:8080", "http://tei.internal:8080/embeddings"],
  ])("%s is posted to at %s", (url, endpoint) => {
    expect(embeddingsEndpoint(url)).toBe(endpoint);
  });

  it("is off without a URL, and refuses a URL without a model or a model without a URL", () => {
    expect(embeddingsSettings({})).toBeNull();
    expect(() => embeddingsSettings({ MNEMO_EMBEDDINGS_URL: "http://127.0.0.1:11434/v1" })).toThrow(
      /^MNEMO_EMBEDDINGS_MODEL is not valid: required when MNEMO_EMBEDDINGS_URL is set/,
    );
    expect(() => embeddingsSettings({ MNEMO_EMBEDDINGS_MODEL: "nomic-embed-text" })).toThrow(
      /^MNEMO_EMBEDDINGS_URL is not valid: required when MNEMO_EMBEDDINGS_MODEL is set/,
    );
    expect(() => embeddingsSettings({ MNEMO_EMBEDDINGS_URL: "ftp://x/v1", MNEMO_EMBEDDINGS_MODEL: "m" })).toThrow(
      /^MNEMO_EMBEDDINGS_URL="ftp:\/\/x\/v1" is not valid/,
    );
    expect(
      embeddingsSettings({ MNEMO_EMBEDDINGS_URL: "http://127.0.0.1:11434/v1", MNEMO_EMBEDDINGS_MODEL: "nomic-embed-text" }),
    ).toEqual({ endpoint: "http://127.0.0.1:11434/v1/embeddings", model: "nomic-embed-text", key: null, timeoutMs: 1500 });
  });
});

describe("requestEmbeddings", () => {
  it("answers one vector per text, in order, as the server made them, sending the model and the key", async () => {
    const answer = await requestEmbeddings(settings, ["Releases go out on Thursdays.", "Ana prefers Portuguese."], TIMEOUT_MS);
    expect(answer).toEqual({ ok: true, vectors: [testVector("Releases go out on Thursdays."), testVector("Ana prefers Portuguese.")] });
    expect(server.lastModel).toBe("test-model");
  });

  it("fails with the status when the key is wrong", async () => {
    const answer = await requestEmbeddings({ ...settings, key: "sk-wrong" }, ["x"], TIMEOUT_MS);
    expect(answer).toEqual({ ok: false, reason: "the embeddings provider answered HTTP 401" });
  });

  it.each<[EmbeddingsServerMode, RegExp]>([
    ["down", /could not be reached/],
    ["slow", new RegExp(`did not answer within ${TIMEOUT_MS} ms`)],
    ["redirect", /redirect \(HTTP 307\), which Mnemo does not follow/],
    ["error-status", /answered HTTP 500/],
    ["not-json", /not JSON/],
    ["wrong-count", /answered 1 embeddings for 2 texts/],
    ["wrong-dimensions", /different dimensions/],
    ["not-finite", /other than finite numbers/],
  ])("%s: a failure with a reason, not a throw", async (mode, reason) => {
    server.mode = mode;
    server.slowMs = TIMEOUT_MS * 10;
    const answer = await requestEmbeddings(settings, ["one", "two"], TIMEOUT_MS);
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.reason).toMatch(reason);
  });

  it("fails when nothing listens at the address", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const answer = await requestEmbeddings({ ...settings, endpoint: `http://127.0.0.1:${port}/v1/embeddings` }, ["x"], TIMEOUT_MS);
    expect(answer).toEqual({ ok: false, reason: "the embeddings provider could not be reached (ECONNREFUSED)" });
  });
});

describe("vectorsIn", () => {
  const good = [1, 0.5];
  it.each<[string, unknown]>([
    ["no data", { embeddings: [good] }],
    ["null", null],
    ["an embedding of strings", { data: [{ embedding: ["1", "2"] }] }],
    ["an empty embedding", { data: [{ embedding: [] }] }],
    ["all zeros", { data: [{ embedding: [0, 0] }] }],
    ["beyond float32", { data: [{ embedding: [1e39, 1] }] }],
    ["a NaN", { data: [{ embedding: [Number.NaN, 1] }] }],
    ["an index twice", { data: [{ index: 0, embedding: good }, { index: 0, embedding: good }] }],
    ["an index out of range", { data: [{ index: 2, embedding: good }] }],
  ])("refuses %s", (_, answer) => {
    const count = Array.isArray((answer as { data?: unknown[] } | null)?.data) ? (answer as { data: unknown[] }).data.length : 1;
    expect(vectorsIn(answer, count).ok).toBe(false);
  });

  it("puts embeddings in the order their indexes say", () => {
    expect(vectorsIn({ data: [{ index: 1, embedding: [0, 1] }, { index: 0, embedding: [1, 0] }] }, 2)).toEqual({
      ok: true,
      vectors: [
        [1, 0],
        [0, 1],
      ],
    });
  });
});

describe("QuestionEmbedder", () => {
  it("keeps a question's vector: asked again, the provider is not", async () => {
    const embedder = new QuestionEmbedder(settings);
    const before = server.requests;
    const [first, second] = await Promise.all([embedder.vectorOf("when do releases go out"), embedder.vectorOf("when do releases go out")]);
    expect(first).toEqual({ ok: true, vector: testVector("when do releases go out") });
    expect(second).toEqual(first);
    expect(await embedder.vectorOf("when do releases go out")).toEqual(first);
    expect(server.requests - before).toBe(1);
  });

  it("after a failure rests without asking, then asks again and is back", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const embedder = new QuestionEmbedder(settings);
    server.mode = "down";
    expect(await embedder.vectorOf("first question")).toMatchObject({ ok: false, reason: expect.stringMatching(/could not be reached/) });

    server.mode = "ok";
    const before = server.requests;
    const resting = await embedder.vectorOf("second question");
    expect(resting).toMatchObject({ ok: false, reason: expect.stringMatching(/not waiting for it/) });
    expect(server.requests).toBe(before);

    vi.setSystemTime(Date.now() + COOLDOWN_MS + 1);
    expect(await embedder.vectorOf("second question")).toEqual({ ok: true, vector: testVector("second question") });
    expect(server.requests).toBe(before + 1);
  });

  it("refuses a question vector of another dimension than the model gave before", async () => {
    const embedder = new QuestionEmbedder(settings, 0);
    expect((await embedder.vectorOf("one")).ok).toBe(true);
    server.mode = "wrong-dimensions";
    expect(await embedder.vectorOf("two")).toMatchObject({ ok: false, reason: expect.stringMatching(/63 numbers for a question, where it gave 64/) });
  });
});
