/**
 * Reading what an agent sent: a JSON body of at most 16 KiB, or query parameters,
 * always parsed with a zod schema, never cast. Not JSON → 415, malformed → 400,
 * too large → 413, the wrong shape → 422 naming the field.
 */
import type { z } from "zod";
import { readCappedBody } from "@/lib/security/capped-body";
import { apiError } from "./errors";

/** The largest request body the API reads, in bytes. */
export const MAX_BODY_BYTES = 16 * 1024;

const tooLarge = () =>
  apiError("too_large", `The body is larger than ${MAX_BODY_BYTES / 1024} KiB. Send one short fact, or one question, at a time.`);

/**
 * `application/json`, with at most a UTF-8 charset. Anything else (a form, plain
 * text, no type) is refused before the body is read: a browser may send those
 * cross-site without asking first, and this API only speaks JSON.
 */
function isJson(contentType: string | null): boolean {
  if (!contentType) return false;
  const [type, ...parameters] = contentType.split(";").map((part) => part.trim().toLowerCase());
  return type === "application/json" && parameters.every((parameter) => /^charset="?utf-8"?$/.test(parameter));
}

/** The JSON body, validated by `schema`. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  if (!isJson(request.headers.get("content-type"))) {
    throw apiError("unsupported_media_type", "Send the body as JSON, with Content-Type: application/json.");
  }
  const bytes = await readCappedBody(request, MAX_BODY_BYTES);
  if (bytes === "too_large") throw tooLarge();
  let value: unknown;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    value = JSON.parse(text);
  } catch {
    throw apiError("malformed_request", "The body is not valid JSON. Send a JSON object encoded as UTF-8.");
  }
  return schema.parse(value);
}

/**
 * The named query parameters, validated by `schema`. Parameters the schema does not
 * name are ignored (a caller cannot claim a place's kind or people); one given
 * twice is refused rather than guessed.
 */
export function parseQuery<S extends z.ZodType>(
  request: Request,
  names: readonly string[],
  schema: S,
  extra: Record<string, unknown> = {},
): z.output<S> {
  const params = new URL(request.url).searchParams;
  const values: Record<string, unknown> = { ...extra };
  for (const name of names) {
    const all = params.getAll(name);
    if (all.length > 1) throw apiError("invalid_request", `${name}: give it once, not ${all.length} times.`);
    // `asker=` means no asker, as leaving it out does.
    if (all.length === 1 && all[0] !== "") values[name] = all[0];
  }
  return schema.parse(values);
}
