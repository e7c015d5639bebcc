import { allowedOptions, methodNotAllowed } from "@/lib/api/methods";
import { handlers } from "@/lib/auth";

export const { GET, POST } = handlers;

// Auth.js serves GET and POST only; the rest say so, as every API route does.
export const OPTIONS = allowedOptions;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
