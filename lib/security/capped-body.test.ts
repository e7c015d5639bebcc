/**
 * readCappedBody: a body at the limit is read whole, one byte more is refused,
 * and a sender can't make it pull much more than the limit by declaring less.
 */
import { describe, expect, it } from "vitest";
import { readCappedBody } from "./capped-body";

/** A body served in chunks, counting what the reader pulls. */
function body(total: number, chunk: number) {
  const seen = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled >= total) return controller.close();
        const size = Math.min(chunk, total - seen.pulled);
        seen.pulled += size;
        controller.enqueue(new Uint8Array(size).fill(0x61));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

function request(stream: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request("http://mnemo.test/upload", { method: "POST", body: stream, headers, duplex: "half" } as RequestInit);
}

describe("readCappedBody", () => {
  it("reads a body of exactly the limit, byte for byte", async () => {
    const { stream } = body(1000, 300);
    const bytes = await readCappedBody(request(stream), 1000);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect((bytes as Uint8Array).length).toBe(1000);
    expect(new TextDecoder().decode(bytes as Uint8Array)).toBe("a".repeat(1000));
  });

  it("refuses one byte more", async () => {
    expect(await readCappedBody(request(body(1001, 300).stream), 1000)).toBe("too_large");
  });

  it("refuses a declared size over the limit without pulling anything", async () => {
    const { stream, seen } = body(10_000, 300);
    expect(await readCappedBody(request(stream, { "content-length": "1001" }), 1000)).toBe("too_large");
    expect(seen.pulled).toBe(0);
  });

  it("stops at the limit when the declared size lies low", async () => {
    const { stream, seen } = body(1_000_000, 300);
    expect(await readCappedBody(request(stream, { "content-length": "10" }), 1000)).toBe("too_large");
    expect(seen.pulled).toBeLessThanOrEqual(1000 + 300);
  });

  it("reads no body as empty", async () => {
    const bytes = await readCappedBody(new Request("http://mnemo.test/upload", { method: "POST" }), 1000);
    expect(bytes).toEqual(new Uint8Array());
  });
});
