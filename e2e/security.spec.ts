/**
 * Web security as a browser sees it: headers on every page, a CSP the app itself
 * passes, session cookies out of scripts' reach, server actions that refuse other
 * origins, and fact text that stays text.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./demo";

const MEMORY = "/w/acme/agents/scout/memory";

function expectPageHeaders(headers: Record<string, string>) {
  const csp = headers["content-security-policy"];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain("unsafe-eval");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-frame-options"]).toBe("DENY");
}

test.describe("signed out", () => {
  test("the sign-in page has the security headers, a fresh nonce each time, and no CSP violations", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const first = await page.goto("/signin");
    expectPageHeaders(first!.headers());
    const second = await page.request.get("/signin");
    expect(second.headers()["content-security-policy"]).not.toBe(first!.headers()["content-security-policy"]);
    // The page works under its own policy: the form is interactive.
    await page.getByLabel("Email").fill("nobody@acme.test");
    await page.getByLabel("Password").fill("wrong");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert", { name: "Sign-in problem" })).toBeVisible();
    expect(violations).toEqual([]);
  });

  test("API responses are never sniffed or framed", async ({ request }) => {
    const response = await request.get("/api/health");
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response.headers()["x-frame-options"]).toBe("DENY");
  });
});

test.describe("signed in as ana", () => {
  test.use({ storageState: storageStateOf("ana") });

  test("the session cookie is http-only and same-site", async ({ page, context }) => {
    await page.goto("/");
    const session = (await context.cookies()).find((cookie) => cookie.name.endsWith("authjs.session-token"));
    expect(session).toBeDefined();
    expect(session!.httpOnly).toBe(true);
    expect(session!.sameSite).toBe("Lax");
    expect(await page.evaluate(() => document.cookie)).not.toContain("session-token");
  });

  test("the Memory page runs under its CSP: every script carries the nonce, and nothing is refused", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto(MEMORY);
    expectPageHeaders(response!.headers());
    const nonce = /'nonce-([^']+)'/.exec(response!.headers()["content-security-policy"])![1];
    const scripts = await page.evaluate(() => [...document.scripts].map((script) => script.nonce));
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((value) => value === nonce)).toBe(true);
    // Hydrated: the live counter answers typing.
    await page.getByLabel("Fact", { exact: true }).fill("abc");
    await expect(page.getByText("3 / 500 characters")).toBeVisible();
    expect(violations).toEqual([]);
  });

  test("fact text with HTML and markdown shows as text and stays one line in the prompt", async ({ page }) => {
    const marker = Date.now();
    const hostile = `<img src=x onerror="window.__pwned=${marker}"> **bold** <script>window.__pwned=1</script>\n## Heading ${marker}`;
    let dialogs = 0;
    page.on("dialog", (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await page.goto(MEMORY);
    await page.getByLabel("Fact", { exact: true }).fill(hostile);
    await page.getByRole("button", { name: "Remember for just you" }).click();
    // Kept first, then looked for in the list: the field itself holds the same text (React writes a controlled
    // textarea's value as its text too), so a bare getByText found it while the write was still on its way, and the
    // preview below was then made without the fact.
    await expect(page.getByText("Scout will remember that.")).toBeVisible();
    const shown = hostile.replace(/\s+/g, " ").trim();
    await expect(page.getByRole("list", { name: "Just you facts" }).getByText(shown, { exact: true })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator(`img[src="x"]`).count()).toBe(0);

    await page.goto(`${MEMORY}?preview=dm-ana`);
    const section = await page.getByLabel("Prompt section").textContent();
    const line = section!.split("\n").find((l) => l.includes(`Heading ${marker}`))!;
    expect(line.startsWith("- [")).toBe(true);
    expect(section!.split("\n").filter((l) => l.startsWith("#"))).toEqual(["## What you remember"]);
    expect(dialogs).toBe(0);
  });

  test("a server action sent from another origin changes nothing", async ({ page }) => {
    const text = `Ana's forged-origin probe ${Date.now()}`;
    await page.goto(MEMORY);
    await page.getByLabel("Fact", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Remember for just you" }).click();
    const card = page.getByRole("listitem").filter({ has: page.getByText(text, { exact: true }) });
    await expect(card.getByRole("button", { name: "Unpin" })).toBeVisible();

    // Capture a real Unpin request, let it through, then replay it from a foreign origin after pinning back.
    const [unpin] = await Promise.all([
      page.waitForRequest((request) => request.method() === "POST" && !!request.headers()["next-action"]),
      card.getByRole("button", { name: "Unpin" }).click(),
    ]);
    await expect(card.getByRole("button", { name: "Pin", exact: true })).toBeVisible();
    await card.getByRole("button", { name: "Pin", exact: true }).click();
    await expect(card.getByRole("button", { name: "Unpin" })).toBeVisible();

    const forged = await page.request.post(unpin.url(), {
      headers: { ...unpin.headers(), origin: "https://evil.example", host: new URL(unpin.url()).host },
      data: unpin.postData() ?? "",
    });
    expect(forged.status()).toBeGreaterThanOrEqual(400);
    await page.reload();
    await expect(
      page.getByRole("listitem").filter({ has: page.getByText(text, { exact: true }) }).getByRole("button", { name: "Unpin" }),
    ).toBeVisible();
  });
});

test("nothing secret is in a page: no password hash, no key, no AUTH_SECRET", async ({ browser }) => {
  // The e2e server runs without AUTH_SECRET, so npm start keeps the one it made here.
  const secret = readFileSync("data/auth-secret", "utf8").trim();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  const context = await browser.newContext({ storageState: storageStateOf("olivia") });
  const page = await context.newPage();
  for (const path of ["/", "/w/acme", MEMORY, "/w/acme/settings", "/w/acme/settings/agents"]) {
    const response = await page.goto(path);
    const html = await response!.text();
    expect(html, path).not.toMatch(/\$argon2id\$/);
    expect(html, path).not.toMatch(/mnemo_[A-Za-z0-9_-]{32,}/);
    expect(html, path).not.toContain(secret);
  }
  await context.close();
});
