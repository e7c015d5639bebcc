/**
 * A request body read with a hard limit: the agent API's JSON (lib/api/request.ts),
 * the facts-file import, and an embeddings provider's answers. A declared Content-Length over the limit is refused
 * before a byte is read; without one (chunked) or with one that lies, reading
 * stops as soon as the limit is passed, so a sender can never make the server
 * hold more.
 */

/** The body's bytes, or "too_large" once it passes `limit` bytes. */
export async function readCappedBody(request: Request, limit: number): Promise<Uint8Array | "too_large"> {
  const declared = Number(request.headers.get("content-length"));
  if (declared > limit) return "too_large";
  return readCappedStream(request.body, limit);
}

/**
 * A stream's bytes, or "too_large" as soon as it passes `limit` bytes (then it is
 * cancelled, not drained). Also reads what other servers answer (an embeddings
 * provider), which Mnemo must not trust with its memory either.
 */
export async function readCappedStream(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array | "too_large"> {
  if (!stream) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return "too_large";
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
