import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD, PEOPLE, storageStateOf, type PersonId } from "./demo";

for (const id of Object.keys(PEOPLE) as PersonId[]) {
  test.describe(`${id}, signed in`, () => {
    test.use({ storageState: storageStateOf(id) });

    test("sees their workspaces and agents with fact counts", async ({ page }) => {
      const person = PEOPLE[id];
      await page.goto("/");
      await expect(page.getByLabel("Signed in as")).toHaveText(person.name);
      for (const workspace of person.workspaces) {
        await expect(page.getByRole("heading", { name: workspace })).toBeVisible();
      }
      for (const agent of person.agents) {
        const meter = page.getByRole("meter", { name: `${agent}'s memory` });
        await expect(meter).toBeVisible();
        // Scout starts with 8 facts; other specs add to them meanwhile. Echo's 1 is never touched.
        const kept = Number(await meter.getAttribute("aria-valuenow"));
        if (id === "gina") expect(kept).toBe(1);
        else expect(kept).toBeGreaterThanOrEqual(8);
        await expect(page.getByText(`${kept.toLocaleString("en-US")} of 2,000 facts kept`).first()).toBeVisible();
      }
      const other = id === "gina" ? "Acme" : "Globex";
      await expect(page.getByRole("heading", { name: other })).toHaveCount(0);
    });
  });
}

test.describe("signed in as ana", () => {
  test.use({ storageState: storageStateOf("ana") });

  test("opens her workspace, and gets a 404 for another workspace", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Acme" }).click();
    await expect(page).toHaveURL(/\/w\/acme$/);
    await expect(page.getByRole("heading", { name: "Acme", level: 1 })).toBeVisible();
    await expect(page.getByText("You are a member of this workspace.")).toBeVisible();

    const response = await page.goto("/w/globex");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Nothing here" })).toBeVisible();
    await expect(page.getByText("Globex")).toHaveCount(0);
  });

  test("signs out and is signed out", async ({ page, browser }) => {
    // A fresh sign-in of its own, so signing out does not end the session other tests share.
    const context = await browser.newContext({ storageState: undefined });
    const fresh = await context.newPage();
    await fresh.goto("/signin");
    await fresh.getByLabel("Email").fill(PEOPLE.ana.email);
    await fresh.getByLabel("Password").fill(DEMO_PASSWORD);
    await fresh.getByRole("button", { name: "Sign in" }).click();
    await expect(fresh.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
    await fresh.getByRole("button", { name: "Sign out" }).click();
    await expect(fresh).toHaveURL(/\/signin/);
    await fresh.goto("/w/acme");
    await expect(fresh).toHaveURL(/\/signin\?callbackUrl=%2Fw%2Facme/);
    await context.close();
    await page.close();
  });
});

test.describe("signed out", () => {
  test("app pages send you to sign in, and back where you were after", async ({ page }) => {
    for (const path of ["/", "/w/acme", "/w/acme/agents/scout/memory"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/signin/);
      await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    }
    await page.goto("/w/acme");
    await page.getByLabel("Email").fill(PEOPLE.max.email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/w\/acme$/);
    await expect(page.getByRole("heading", { name: "Acme", level: 1 })).toBeVisible();
  });

  test("a wrong password is refused with a message, and the email is kept", async ({ page }) => {
    await page.goto("/signin");
    await page.getByLabel("Email").fill(PEOPLE.gus.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert", { name: "Sign-in problem" })).toHaveText(
      "That email and password don't match an account. Check them and try again.",
    );
    await expect(page.getByLabel("Email")).toHaveValue(PEOPLE.gus.email);
    await expect(page).toHaveURL(/\/signin/);
  });

  test("an unknown email gets the same message as a wrong password", async ({ page }) => {
    await page.goto("/signin");
    await page.getByLabel("Email").fill("nobody@acme.test");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert", { name: "Sign-in problem" })).toHaveText(
      "That email and password don't match an account. Check them and try again.",
    );
  });

  test("an empty form says what to fill in", async ({ page }) => {
    await page.goto("/signin");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert", { name: "Sign-in problem" })).toHaveText("Enter your email address.");
  });
});

test.describe("health", () => {
  test("liveness and readiness answer without a key", async ({ request }) => {
    const live = await request.get("/api/health");
    expect(live.status()).toBe(200);
    expect(await live.json()).toEqual({ ok: true });
    const ready = await request.get("/api/ready");
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toMatchObject({ ok: true });
  });
});
