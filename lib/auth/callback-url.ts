/**
 * Where to go after sign-in: a path on this site only, never another origin.
 * The value comes from the address bar, so anyone can write it; what a browser
 * makes of it is what counts, not how it looks. Browsers drop tabs and newlines
 * inside a URL and read a backslash as a slash, so "/\t/evil.example" becomes
 * "//evil.example" — another site. Such characters are refused outright, and the
 * rest is parsed as a URL, never compared as a string.
 */

/** A stand-in for this site: the real origin is unknown here, and only the path is kept. */
const HERE = "http://mnemo.invalid";

/** Control characters (C0, DEL, C1), any whitespace (NBSP, U+3000, line separators…) and backslashes. */
const UNSAFE = /[\p{Cc}\s\\]/u;

export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string" || UNSAFE.test(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, HERE);
  } catch {
    return "/";
  }
  if (url.origin !== HERE) return "/";
  // Signing in again after signing in would go round in circles.
  if (url.pathname === "/signin" || url.pathname.startsWith("/signin/")) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/.//evil.example" parses to the path "//evil.example", which a browser reads as another host.
  if (path.startsWith("//")) return "/";
  return path;
}
