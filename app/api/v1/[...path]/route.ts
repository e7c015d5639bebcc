/** Any other path under /api/v1: a 404 in the API's envelope, pointing at the description of what exists. */
import { apiError, errorResponse } from "@/lib/api/errors";

function notFound(): Response {
  return errorResponse(
    apiError(404, "not_found", "There is no such API call. See /api/v1/openapi.json for the calls there are."),
  );
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
