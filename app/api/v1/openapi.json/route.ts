/** GET /api/v1/openapi.json: the agent API's OpenAPI 3.1 document, generated from its zod schemas. No key needed. */
import { openApiDocument } from "@/lib/api/openapi";

export function GET() {
  return Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}
