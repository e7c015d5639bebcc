/** Any other path under /api/v1: a 404 in the API's envelope, whatever the method, pointing at the description of what exists. */
import { errorResponse } from "@/lib/api/errors";
import { noSuchCall } from "@/lib/api/methods";

function notFound(): Response {
  return errorResponse(noSuchCall());
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
