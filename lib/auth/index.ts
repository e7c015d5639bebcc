/**
 * Auth.js: email and password (argon2id) for everyone, OAuth/OIDC providers when
 * their environment variables are set (see .env.example). Sessions are JWTs in an
 * http-only cookie; every page and action re-checks the person in the database.
 */
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import { eq } from "drizzle-orm";
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import { z } from "zod";
import { getDb } from "@/db";
import { accounts, sessions, users, verificationTokens } from "@/db/schema";
import { authSecret, readConfig } from "@/lib/config";
import { clientAddress } from "./client-address";
import { hashPassword, verifyPassword } from "./password";
import { SESSION_IDLE_SECONDS, sessionTooOld, sessionVersionOf, type SessionStamp } from "./session-version";
import { signInSucceeded, startSignIn } from "./throttle";

class WrongCredentials extends CredentialsSignin {
  code = "wrong_credentials";
}
/** Refused before the password is checked; the code carries the wait, in seconds, to the sign-in form. */
class TooManyAttempts extends CredentialsSignin {
  constructor(waitMs: number) {
    super();
    this.code = `rate_limited_${Math.ceil(waitMs / 1000)}`;
  }
}

const credentialsInput = z.object({
  email: z.string().trim().toLowerCase().email().max(254),
  password: z.string().min(1).max(1024),
});

// Unknown emails are checked against this hash too, so the time a failed sign-in
// takes does not tell whether the email has an account.
let dummyHash: Promise<string> | undefined;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("not-a-real-password-only-for-timing");
  return dummyHash;
}


async function authorize(raw: unknown, request: Request | undefined) {
  const parsed = credentialsInput.safeParse(raw);
  if (!parsed.success) throw new WrongCredentials();
  const { email, password } = parsed.data;
  const db = getDb();
  const address = request ? clientAddress(request.headers, readConfig().MNEMO_TRUSTED_PROXIES) : null;
  // Counted as a failure before the slow check, so guesses sent at once cannot all slip under the limit.
  const turn = await startSignIn(db, email, address);
  if (!turn.allowed) throw new TooManyAttempts(turn.waitMs);

  const [user] = await db
    .select({ id: users.id, name: users.name, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user?.passwordHash || !valid) throw new WrongCredentials();
  await signInSucceeded(db, email, address, turn.attempt);
  return { id: user.id, name: user.name, email: user.email };
}

/** OAuth and OIDC providers, each switched on by its own environment variables. */
function oauthProviders(): NextAuthConfig["providers"] {
  const env = process.env;
  const providers: NextAuthConfig["providers"] = [];
  if (env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET) providers.push(GitHub);
  if (env.AUTH_GOOGLE_ID && env.AUTH_GOOGLE_SECRET) providers.push(Google);
  if (env.AUTH_OIDC_ISSUER && env.AUTH_OIDC_ID && env.AUTH_OIDC_SECRET) {
    providers.push({
      id: "oidc",
      name: env.AUTH_OIDC_NAME || "Single sign-on",
      type: "oidc",
      issuer: env.AUTH_OIDC_ISSUER,
      clientId: env.AUTH_OIDC_ID,
      clientSecret: env.AUTH_OIDC_SECRET,
    });
  }
  return providers;
}

/** The OAuth/OIDC providers the sign-in page offers, by id and name. */
export function oauthProviderButtons(): { id: string; name: string }[] {
  return oauthProviders().map((provider) => {
    const p = typeof provider === "function" ? provider() : provider;
    return { id: p.id, name: p.name };
  });
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const db = getDb();
  return {
    secret: authSecret(),
    trustHost: true,
    adapter: DrizzleAdapter(db, {
      usersTable: users,
      accountsTable: accounts,
      sessionsTable: sessions,
      verificationTokensTable: verificationTokens,
    }),
    session: { strategy: "jwt", maxAge: SESSION_IDLE_SECONDS },
    logger: {
      // A wrong password is an everyday answer, not a server error worth a stack trace.
      error(error) {
        if (error instanceof CredentialsSignin || error.name === "CredentialsSignin") return;
        console.error(`[auth] ${error.name}: ${error.message}`);
      },
    },
    pages: { signIn: "/signin" },
    providers: [
      Credentials({
        credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
        authorize,
      }),
      ...oauthProviders(),
    ],
    callbacks: {
      async jwt({ token, user }) {
        const stamp = token as typeof token & SessionStamp;
        // At sign-in: the version this session lives under, and when it began.
        if (user?.id) return { ...token, sv: await sessionVersionOf(db, user.id), since: Date.now() } satisfies SessionStamp;
        // Null ends the session (and clears the cookie where a response can carry it).
        return sessionTooOld(stamp) ? null : token;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return { ...session, sessionVersion: (token as SessionStamp).sv };
      },
    },
  };
});
