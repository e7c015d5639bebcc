/**
 * safeCallbackUrl decides where a browser goes after sign-in, from a value anyone
 * can put in a link. Whatever the value, the browser must stay on this site and
 * the answer must be a header Node can send.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "./callback-url";

const ORIGINS = ["https://mnemo.example", "http://localhost:3100", "http://[::1]:8080", "https://a.b.example:8443"];
const UNSAFE = /[\p{Cc}\s\\]/u;

/** Strings built from the pieces that have turned into open redirects elsewhere. */
const tricky = fc
  .array(
    fc.constantFrom(
      "/", "//", "\\", "\t", "\n", "\r", "\u3000", "\u00a0", "\u2028", "\u0085", "\u007f", " ",
      ".", "..", "%2e", "%2F", "%5C", "%09", "evil.example", "@", ":", "?", "#", "https:", "javascript:",
      "signin", "w", "acme", "é", "\u200b",
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(""));

describe("safeCallbackUrl", () => {
  it.each([
    ["/w/acme/agents/scout/memory", "/w/acme/agents/scout/memory"],
    ["/w/acme?q=releases#facts", "/w/acme?q=releases#facts"],
    ["/", "/"],
  ])("keeps a path on this site: %j", (value, expected) => {
    expect(safeCallbackUrl(value)).toBe(expected);
  });

  it.each([
    // Each once got through: a browser drops the tab and goes to evil.example; the others broke the redirect header.
    "/\t/evil.example",
    "/\r/x",
    "/\n/x",
    "/\u3000/x",
    "/\u00a0/x",
    "/\u2028/x",
    "/\u0085/x",
    "/\u007f/x",
    "/\\evil.example",
    "/\\/evil.example",
    "//evil.example",
    "/.//evil.example",
    "/w/..//evil.example",
    "/%2e%2e//evil.example",
    "https://evil.example/w/acme",
    "https:evil.example",
    "javascript:alert(1)",
    "/signin",
    "/signin?callbackUrl=%2Fw%2Facme",
    "/signin/create-account",
  ])("sends %j home instead", (value) => {
    expect(safeCallbackUrl(value)).toBe("/");
  });

  it.each([undefined, null, 42, ["/w/acme"], {}])("sends a value that is not text (%j) home", (value) => {
    expect(safeCallbackUrl(value)).toBe("/");
  });

  it("whatever it is given: a plain path, and resolving it from any origin stays on that origin", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.webUrl(), tricky), fc.constantFrom(...ORIGINS), (value, origin) => {
        const path = safeCallbackUrl(value);
        expect(path.startsWith("/")).toBe(true);
        expect(path.startsWith("//")).toBe(false);
        expect(path.startsWith("/\\")).toBe(false);
        expect(path).not.toMatch(UNSAFE);
        expect(new URL(path, origin).origin).toBe(origin);
      }),
      { numRuns: 5000 },
    );
  });
});
