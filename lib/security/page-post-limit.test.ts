/**
 * refusePagePost, as the proxy calls it before Next parses a server action: the
 * sizes a browser's form can have pass, anything larger or undeclared does not.
 */
import { describe, expect, it } from "vitest";
import { PAGE_POST_LIMIT, refusePagePost } from "./page-post-limit";

const post = (headers: Record<string, string>) => new Request("http://mnemo.test/signin", { method: "POST", headers });

describe("refusePagePost", () => {
  it("lets a form of up to 1 MB through, and every GET", () => {
    expect(refusePagePost(post({ "content-length": String(PAGE_POST_LIMIT) }))).toBeNull();
    expect(refusePagePost(post({ "content-length": "120" }))).toBeNull();
    expect(refusePagePost(post({}))).toBeNull();
    expect(refusePagePost(new Request("http://mnemo.test/signin"))).toBeNull();
  });

  it("refuses a declared 1 MB and a byte with 413, in words", async () => {
    const refused = refusePagePost(post({ "content-length": String(PAGE_POST_LIMIT + 1) }));
    expect(refused?.status).toBe(413);
    expect(await refused?.text()).toBe("That form is larger than 1 MB. Send less at once.\n");
  });

  it("refuses a chunked POST, whose size no one declared, with 411", () => {
    expect(refusePagePost(post({ "transfer-encoding": "chunked" }))?.status).toBe(411);
  });
});
