/**
 * An ApiError is known as one whichever copy of errors.ts made it: the built server
 * bundles the module once for instrumentation (whose copy makes the agent thread's
 * refusals) and once per route (whose copy answers them).
 */
import { describe, expect, it } from "vitest";
import { ApiError, apiError, errorResponse } from "./errors";

describe("ApiError", () => {
  it("is recognized across copies of its module, and answered with its own status and code", async () => {
    // A query makes Vite load the file again as a module of its own: a second class, as the bundle has.
    const another = "./errors?another-copy";
    const copy = (await import(/* @vite-ignore */ another)) as typeof import("./errors");
    expect(copy.ApiError).not.toBe(ApiError);
    const refusal = copy.apiError("looks_like_secret", "fact: it looks like it contains an API key.");
    expect(refusal instanceof ApiError).toBe(true);
    const response = errorResponse(refusal);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: { code: "looks_like_secret", message: "fact: it looks like it contains an API key." } });
  });

  it("is not claimed by other errors", () => {
    expect(new Error("boom") instanceof ApiError).toBe(false);
    expect({ code: "not_found", message: "x" } instanceof ApiError).toBe(false);
    expect((null as unknown as object) instanceof ApiError).toBe(false);
    expect(apiError("not_found", "x") instanceof Error).toBe(true);
  });
});
