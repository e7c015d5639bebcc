/** Where to go after sign-in: a path on this site only, never another origin. */
export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string") return "/";
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  if (value.startsWith("/signin")) return "/";
  return value;
}
