/**
 * What the sign-in form says for each answer of Auth.js. Only Auth.js's signIn is
 * a double (it needs a request); it fails the way lib/auth/index.ts makes it fail.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

const { authSignIn, AuthError } = await vi.hoisted(() => import("@/lib/testing/signed-in"));

const { signInWithPassword } = await import("./actions");

/** An Auth.js failure with the code authorize gave it. */
function refusal(code: string): Error {
  return Object.assign(new AuthError("CredentialsSignin"), { code });
}

function form(email: string, password: string): FormData {
  const data = new FormData();
  data.set("email", email);
  data.set("password", password);
  return data;
}

beforeEach(() => {
  authSignIn.mockReset();
});

describe("signInWithPassword", () => {
  it.each([
    ["rate_limited_1", "Too many attempts. Try again in 1 second."],
    ["rate_limited_42", "Too many attempts. Try again in 42 seconds."],
    ["rate_limited_900", "Too many attempts. Try again in 15 minutes."],
    ["wrong_credentials", "That email and password don't match an account. Check them and try again."],
    ["rate_limited_", "That email and password don't match an account. Check them and try again."],
  ])("answers %s with: %s", async (code, message) => {
    authSignIn.mockImplementation(async () => {
      throw refusal(code);
    });
    expect(await signInWithPassword({ status: "idle" }, form("ana@acme.test", "a guess"))).toEqual({
      status: "failed",
      message,
      email: "ana@acme.test",
    });
  });
});
