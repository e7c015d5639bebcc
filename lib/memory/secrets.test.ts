/**
 * The secret filter, measured on a labelled list (secrets.fixtures.ts): every
 * credential refused and not one ordinary fact, near misses included. Generated
 * credentials, anywhere in a sentence, and generated ordinary sentences about
 * passwords and tokens check the same two sides beyond the list.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectionForm, looksLikeSecret } from "./secrets";
import { DISGUISED_CREDENTIALS, ORDINARY_FACTS, SECRET_SAMPLES } from "./secrets.fixtures";

const TEXT = { numRuns: 2_000 };

describe("looksLikeSecret on the labelled list", () => {
  it("refuses every credential and no ordinary fact", () => {
    const missed = SECRET_SAMPLES.filter((text) => looksLikeSecret(text) === null);
    const refused = ORDINARY_FACTS.filter((text) => looksLikeSecret(text) !== null);
    console.info(
      `secret filter: ${SECRET_SAMPLES.length - missed.length}/${SECRET_SAMPLES.length} credentials refused, ` +
        `${refused.length}/${ORDINARY_FACTS.length} ordinary facts refused`,
    );
    expect(SECRET_SAMPLES.length).toBeGreaterThanOrEqual(100);
    expect(ORDINARY_FACTS.length).toBeGreaterThanOrEqual(300);
    expect(missed).toEqual([]);
    expect(refused).toEqual([]);
  });

  it("refuses disguised credentials: in words, in URLs, and hidden by invisible or fullwidth characters", () => {
    for (const text of DISGUISED_CREDENTIALS) expect(looksLikeSecret(text), text).not.toBeNull();
  });

  it("names what it found", () => {
    expect(looksLikeSecret("postgres://app:pa55w0rd@db/app")).toBe("a password in a URL");
    expect(looksLikeSecret("The wifi password is Tr0ub4dor&3")).toBe("a password or token");
    expect(looksLikeSecret("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")).toBe("an AWS secret key");
    expect(looksLikeSecret("AKIAIOSFODNN7EXAMPLE")).toBe("an AWS access key");
    expect(looksLikeSecret(DISGUISED_CREDENTIALS.at(-1)!)).toBe("a webhook URL");
  });
});

describe("detectionForm", () => {
  it("reads through fullwidth letters, invisible characters, accents and dash look-alikes", () => {
    expect(detectionForm("ｇｈｐ＿ab\u200bc\u00add\u2060e")).toBe("ghp_abcde");
    expect(detectionForm("sk\u2011proj\u2013x")).toBe("sk-proj-x");
    expect(detectionForm("pa\u0301ss\u202eword")).toBe("password");
  });
});

describe("looksLikeSecret on generated text", () => {
  const alnum = fc.constantFrom(..."abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNOPQRSTUVWXYZ0123456789".split(""));
  const upperAlnum = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".split(""));
  const run = (min: number, max: number, unit = alnum) => fc.string({ unit, minLength: min, maxLength: max });

  it("flags a generated credential wherever it sits in the text", () => {
    const secret = fc.oneof(
      run(16, 40).map((s) => `sk-${s}`),
      run(20, 40).map((s) => `ghp_${s}`),
      run(20, 40).map((s) => `github_pat_${s}`),
      run(10, 30).map((s) => `xoxb-${s}`),
      run(16, 16, upperAlnum).map((s) => `AKIA${s}`),
      fc.constantFrom("RSA ", "EC ", "OPENSSH ", "").map((k) => `-----BEGIN ${k}PRIVATE KEY-----`),
      fc.tuple(run(8, 30), run(8, 30), run(8, 40)).map(([a, b, c]) => `eyJ${a}.eyJ${b}.${c}`),
      fc
        .tuple(fc.constantFrom("password", "PASSWORD", "token", "secret", "api_key", "DB_PASSWORD"), run(4, 20))
        // A token setting set to a number is a count (`token_limit=8000`), by the rule: such a value is not a credential.
        .filter(([k, v]) => !/^(token|api_key)$/.test(k) || /\D/.test(v))
        .map(([k, v]) => `${k}=${v}`),
      fc.tuple(fc.constantFrom("postgres", "https", "redis", "mongodb+srv"), run(1, 10), run(4, 20)).map(([scheme, user, pw]) => `${scheme}://${user}:${pw}@db.internal/app`),
      fc.tuple(run(9, 9, upperAlnum), run(11, 11, upperAlnum), run(24, 24)).map(([t, b, x]) => `https://hooks.slack.com/services/T${t}/B${b}/${x}`),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), secret, fc.string({ maxLength: 60 }), (before, s, after) => {
        expect(looksLikeSecret(`${before} ${s} ${after}`)).not.toBeNull();
      }),
      TEXT,
    );
  });

  it("never flags ordinary sentences, even ones about passwords, tokens, keys and webhooks", () => {
    const everyday = fc.constantFrom(
      ...["Releases", "go", "out", "on", "Thursdays", "the", "password", "policy", "token", "Token:", "secret", "key"],
      ...["sk-learn", "ask", "Max", "for", "one", "changed", "in", "May", "Q3", "budget", "is", "2025", "v2", "refunds"],
      ...["over", "$500", "need", "approval", "SSO", "AKIA", "ghp", "xoxb", "eyJ", "-", "—", "(see", "wiki)", "webhook"],
      ...["Password:", "API", "key:", "was", "rotated", "1Password", "https://docs.acme.test/a", "db.internal:5432", "#alerts"],
    );
    fc.assert(
      fc.property(fc.array(everyday, { minLength: 1, maxLength: 20 }), (words) => {
        const text = `${words.join(" ")}.`;
        expect(looksLikeSecret(text)).toBeNull();
      }),
      { numRuns: 5_000 },
    );
  });
});
