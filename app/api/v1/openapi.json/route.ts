/** GET /api/v1/openapi.json: the agent API's OpenAPI 3.1 document, generated from its zod schemas. No key needed. */
import { allowedOptions, methodNotAllowed } from "@/lib/api/methods";
import { openApiDocument } from "@/lib/api/openapi";

export function GET() {
  return Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}

export const OPTIONS = allowedOptions;
export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
