/**
 * Who has the session cookie, chosen by the test: for tests that call the app's
 * server actions and route handlers as a browser would. Only what needs a
 * request is a double — reading the cookie, Auth.js's signIn/signOut, Next's
 * revalidatePath; membershipOf, requireMember and the database are the real ones.
 *
 * A test file loads it before anything else, so no module sees the real ones:
 *
 *   const { signInAs, PEOPLE } = await vi.hoisted(() => import("@/lib/testing/signed-in"));
 */
import { vi } from "vitest";
import { DEMO_PEOPLE } from "@/db/seed";
import type { SignedInUser } from "@/lib/auth/session";
import { handleOf } from "@/lib/person-name";

/** Each demo person as the app sees them once signed in, and a still-valid cookie for a person since deleted. */
export const PEOPLE = {
  ...(Object.fromEntries(
    DEMO_PEOPLE.map((p) => [p.id, { id: p.id, name: p.name, email: p.email, handle: handleOf(p.email) }]),
  ) as Record<(typeof DEMO_PEOPLE)[number]["id"], SignedInUser>),
  ghost: { id: "ghost", name: "Gone Person", email: "ghost@acme.test", handle: "ghost" },
} satisfies Record<string, SignedInUser>;
export type Who = keyof typeof PEOPLE;

const cookie = { user: null as SignedInUser | null };

/** From now on, requests come from this person (a name from PEOPLE, or anyone), or from nobody. */
export function signInAs(who: Who | SignedInUser | null): void {
  cookie.user = typeof who === "string" ? PEOPLE[who] : who;
}

/** next-auth's error class; its real module imports "next/server", which resolves only inside Next's bundler. */
export class AuthError extends Error {}

/** Auth.js's signIn needs a request; it answers undefined unless a test says otherwise. */
export const authSignIn = vi.fn<(provider: string, options: Record<string, unknown>) => Promise<unknown>>();
export const authSignOut = vi.fn<(options?: Record<string, unknown>) => Promise<void>>(async () => {});
/** Next's revalidatePath needs a request; tests ask what it was called with. */
export const revalidatePath = vi.fn<(path: string, type?: string) => void>();

vi.doMock("@/lib/auth/session", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/auth/session")>()),
  currentUser: async () => cookie.user,
}));
// The cookie's one other reader: the same identity.
vi.doMock("@/lib/auth", () => ({
  auth: async () => (cookie.user ? { user: { id: cookie.user.id } } : null),
  signIn: authSignIn,
  signOut: authSignOut,
}));
vi.doMock("next-auth", () => ({ AuthError }));
vi.doMock("next/cache", () => ({ revalidatePath }));
