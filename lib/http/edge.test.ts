/**
 * The HTTP edge's answers to what Next cannot take: methods it cannot build a
 * request for, and paths whose escapes are not UTF-8. Everything else passes.
 */
import { describe, expect, it, vi } from "vitest";
import { edgeAnswer } from "./edge";

describe("edgeAnswer", () => {
  it("TRACE on an API route: 405 in the envelope, Allow exactly the route's methods", () => {
    const answer = edgeAnswer("TRACE", "/api/health")!;
    expect(answer.status).toBe(405);
    expect(answer.headers.Allow).toBe("GET, HEAD, OPTIONS");
    expect(JSON.parse(answer.body)).toEqual({ error: { code: "method_not_allowed", message: "This call takes GET, HEAD, OPTIONS only." } });
    expect(edgeAnswer("PROPFIND", "/api/v1/memories/f1?channel=general")!.headers.Allow).toBe("DELETE, OPTIONS");
  });

  it("TRACE on a page: 405 in plain text; on an API path that does not exist: 404", () => {
    const page = edgeAnswer("TRACE", "/w/acme")!;
    expect([page.status, page.headers.Allow, page.headers["Content-Type"]]).toEqual([405, "GET, HEAD, POST", "text/plain; charset=utf-8"]);
    const missing = edgeAnswer("TRACE", "/api/v1/nope")!;
    expect([missing.status, JSON.parse(missing.body).error.code]).toEqual([404, "not_found"]);
  });

  it.each(["/api/v1/memories/%FF", "/api/v1/memories/a%", "/api/v1/memories/%C0%80", "/api/v1/memories/%ED%A0%80", "http://mnemo.test/api/v1/%E2%82"])(
    "%s: 400 malformed_request, whatever the method",
    (target) => {
      for (const method of ["GET", "DELETE", "TRACE"]) {
        const answer = edgeAnswer(method, target)!;
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body).error.code).toBe("malformed_request");
      }
    },
  );

  it("a broken escape in a page's path is a plain 400; a target that is no path at all too", () => {
    expect(edgeAnswer("GET", "/w/%C0%80")).toMatchObject({ status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    expect(edgeAnswer("OPTIONS", "*")?.status).toBe(400);
  });

  it("lets through what Next handles: routable methods, valid escapes, and escapes in the query", () => {
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      expect(edgeAnswer(method, "/api/v1/memories/caf%C3%A9%20%F0%9F%9A%80?channel=%FF")).toBeNull();
    }
  });

  it("writes nothing to the log", () => {
    const spies = [vi.spyOn(console, "error"), vi.spyOn(console, "warn"), vi.spyOn(process.stderr, "write"), vi.spyOn(process.stdout, "write")];
    try {
      edgeAnswer("TRACE", "/api/health");
      edgeAnswer("GET", "/api/v1/memories/%FF");
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
