/**
 * Two doors open to anyone, tried with raw HTTP against the production server:
 * where sign-in sends a browser afterwards (a link's callbackUrl must never lead
 * to another site, nor break the redirect), and how much a server action POST
 * may make the server read before it is refused.
 */
import http from "node:http";
import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD, E2E_PORT, PEOPLE, storageStateOf } from "./demo";

const HERE = `http://localhost:${E2E_PORT}`;

/** Where a browser would go from this Location header, resolved as the browser resolves it. */
const destination = (location: string | undefined) => new URL(location ?? "", HERE);

test.describe("after sign-in, only this site", () => {
  test.use({ storageState: storageStateOf("olivia") });

  test("a signed-in visit to /signin with a crafted callbackUrl stays on this site, and never breaks", async ({ request }) => {
    const crafted = {
      // A browser drops the tab: "/\t/evil.example" would be "//evil.example", another host.
      "/\t/evil.example": "%2F%09%2Fevil.example",
      "/.//evil.example": "%2F.%2F%2Fevil.example",
      "/\\evil.example": "%2F%5Cevil.example",
      // These broke the Location header (a 500).
      "/\r/x": "%2F%0D%2Fx",
      "/\u3000/x": "%2F%E3%80%80%2Fx",
    };
    for (const [value, encoded] of Object.entries(crafted)) {
      const response = await request.get(`/signin?callbackUrl=${encoded}`, { maxRedirects: 0 });
      expect(response.status(), JSON.stringify(value)).toBeGreaterThanOrEqual(300);
      expect(response.status(), JSON.stringify(value)).toBeLessThan(400);
      expect(destination(response.headers().location).origin, JSON.stringify(value)).toBe(HERE);
    }
    // An honest one is kept.
    const honest = await request.get(`/signin?callbackUrl=${encodeURIComponent("/w/acme?tab=agents")}`, { maxRedirects: 0 });
    expect(destination(honest.headers().location).href).toBe(`${HERE}/w/acme?tab=agents`);
  });
});

test.describe("signing in from a crafted link", () => {
  test("the form lands on this site, not on the link's other host", async ({ page }) => {
    const leaving: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).origin !== HERE) leaving.push(request.url());
    });
    await page.goto("/signin?callbackUrl=%2F%09%2Fevil.example");
    await page.getByLabel("Email").fill(PEOPLE.gus.email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(HERE);
    expect(leaving).toEqual([]);
  });

  test("an honest callbackUrl is where the form lands", async ({ page }) => {
    await page.goto(`/signin?callbackUrl=${encodeURIComponent("/w/acme/agents/scout/memory")}`);
    await page.getByLabel("Email").fill(PEOPLE.gus.email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Scout's memory" })).toBeVisible();
    expect(page.url()).toBe(`${HERE}/w/acme/agents/scout/memory`);
  });
});

/** A raw POST with a chunked body (no Content-Length), as no browser sends a form. */
function postChunked(path: string, headers: Record<string, string>, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${HERE}${path}`, { method: "POST", headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", reject);
    for (let at = 0; at < body.length; at += 64 * 1024) request.write(body.subarray(at, at + 64 * 1024));
    request.end();
  });
}

test.describe("server action bodies before sign-in", () => {
  test("a 2 MB action POST to /signin is refused at once with 413, and the server keeps answering", async ({ page }) => {
    // The sign-in form's own action id, as a browser sends it.
    await page.goto("/signin");
    await page.getByLabel("Email").fill("nobody@acme.test");
    await page.getByLabel("Password").fill("wrong");
    const [action] = await Promise.all([
      page.waitForRequest((request) => request.method() === "POST" && !!request.headers()["next-action"]),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    // That attempt answers before the form is used again: when its answer comes, React resets the form to what it
    // returned, and it once wiped the email and password filled in below while it was still on its way.
    await expect(page.getByRole("alert", { name: "Sign-in problem" })).toBeVisible();
    const headers = { "next-action": action.headers()["next-action"], "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" };
    // What made the server spend a second per request: a large nested array for React to decode.
    const nested = Buffer.from(`[${"[[],".repeat(500_000)}[]]`);
    expect(nested.length).toBeGreaterThan(2_000_000);

    const started = Date.now();
    const sent = await Promise.all(Array.from({ length: 4 }, () => page.request.post("/signin", { headers, data: nested })));
    for (const response of sent) expect(response.status()).toBe(413);
    expect(Date.now() - started).toBeLessThan(5_000);

    const chunked = await postChunked("/signin", headers, nested);
    expect(chunked).toBe(411);

    const healthStarted = Date.now();
    const health = await page.request.get("/api/health");
    expect(health.status()).toBe(200);
    expect(Date.now() - healthStarted).toBeLessThan(1_000);

    // The form still signs in: the limit leaves real forms alone.
    await page.getByLabel("Email").fill(PEOPLE.gus.email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
  });
});
