/**
 * An accessibility scan (axe-core) of every page and the states people reach on
 * them — dialog, edit, history, a key shown, errors, a preview, the Inbox, Your
 * data, a pasted fact past the limit — as a signed-out visitor, a member and an
 * owner. Each state is loaded once and scanned with every rule four times: light
 * and dark (the system's choice, which the page follows without a reload) at 1280
 * and 390 px. Any serious or critical violation fails. The Memory page's screenshots
 * in both themes and widths are attached to the report.
 */
import axe from "axe-core";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { storageStateOf } from "./demo";
import { signedOutPage, unique } from "./people";

const THEMES = ["light", "dark"] as const;
const WIDTHS = [1280, 390] as const;
const MEMORY = "/w/acme/agents/scout/memory";

type Violation = Pick<axe.Result, "id" | "impact" | "help"> & { targets: string[] };

/**
 * axe's violations on the page as it is now, every rule. axe is put in a document once
 * and run there as often as asked: @axe-core/playwright's analyze() put its 600 kB in
 * again on every call and finished each run in a new tab — about a second a scan on
 * CI's two cores, where a run itself takes 50–200 ms.
 */
async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const { violations } = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ["violations"] });
    return violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((node) => node.target.join(" ")) }));
  });
}

/** Scans the page as it is now in both themes and widths; returns what fails, one line per rule and place. */
async function scan(page: Page, state: string, testInfo: TestInfo, screenshots = false): Promise<string[]> {
  const problems: string[] = [];
  // The page's <title> can come after the content the test waited for: a clean-clone CI run scanned the key page just
  // after "Create key" without one, in all four scans. The scan starts once there is a title; one that never comes fails here.
  await expect(page).toHaveTitle(/\S/);
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    // Colours change with a transition: scanned mid-way, a button's colours are neither theme's. Each is ended at
    // once rather than awaited: Chromium 156.0.8078.114 never advances one inside a closed <details> (the channels
    // page's "Rename or change kind"), so awaiting its `finished` hung the test.
    await page.evaluate(() => document.getAnimations().forEach((animation) => animation instanceof CSSTransition && animation.finish()));
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const v of (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")) {
        const where = v.targets.slice(0, 3).join(" | ");
        problems.push(`${state} · ${theme} · ${width}px · ${v.id} (${v.impact}): ${v.help} — ${where}`);
      }
      if (screenshots) {
        await testInfo.attach(`${state} ${theme} ${width}px`, { body: await page.screenshot(), contentType: "image/png" });
      }
    }
  }
  // Back to where the next state's steps expect the page.
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
  return problems;
}

test("the scan finds what it is there to find: a missing alt text and unreadable text, in both themes and widths", async ({
  browser,
}, testInfo) => {
  const { context, page } = await signedOutPage(browser);
  await page.goto("/signin");
  await page.evaluate(() => {
    const planted = document.createElement("div");
    planted.innerHTML = `<img src="/favicon.ico"><p style="color:#999;background:#aaa">Hard to read</p>`;
    document.body.append(planted);
  });
  const problems = await scan(page, "planted", testInfo);
  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      expect(problems).toContainEqual(expect.stringContaining(`planted · ${theme} · ${width}px · image-alt (critical)`));
      expect(problems).toContainEqual(expect.stringContaining(`planted · ${theme} · ${width}px · color-contrast (serious)`));
    }
  }
  await context.close();
});

test.describe("a signed-out visitor", () => {
  test("sign-in (and its error), first account, a bad invite link and a missing page", async ({ browser }, testInfo) => {
    const { context, page } = await signedOutPage(browser);
    const problems: string[] = [];
    await page.goto("/signin");
    problems.push(...(await scan(page, "sign-in", testInfo)));
    await page.getByLabel("Email").fill("nobody@acme.test");
    await page.getByLabel("Password").fill("not the password");
    const signIn = page.getByRole("button", { name: "Sign in" });
    await signIn.click();
    // The form's own alert (Next's route announcer is an alert too), then the button back from "Signing in…" with its
    // colour transition finished: scanned mid-transition, its colours are neither state's.
    await expect(page.getByRole("alert", { name: "Sign-in problem" })).toBeVisible();
    await expect(signIn).toBeEnabled();
    await signIn.evaluate((button) => Promise.all(button.getAnimations().map((animation) => animation.finished)));
    problems.push(...(await scan(page, "sign-in refused", testInfo)));
    await page.goto("/signin/create-account");
    problems.push(...(await scan(page, "first account", testInfo)));
    await page.goto("/invite/not-a-real-invite-token");
    problems.push(...(await scan(page, "bad invite", testInfo)));
    await page.goto("/no-such-page");
    problems.push(...(await scan(page, "not found", testInfo)));
    expect(problems).toEqual([]);
    await context.close();
  });
});

test.describe("a member", () => {
  test.use({ storageState: storageStateOf("ana") });

  test("home, workspace, Your data", async ({ page }, testInfo) => {
    const problems: string[] = [];
    for (const [state, path] of [
      ["home", "/"],
      ["workspace", "/w/acme"],
      ["your data", "/you/data"],
    ] as const) {
      await page.goto(path);
      problems.push(...(await scan(page, state, testInfo)));
    }
    expect(problems).toEqual([]);
  });

  test("the Memory page: as loaded, edit, history, search, preview, and a paste past the limit", async ({ page }, testInfo) => {
    const problems: string[] = [];
    await page.goto(MEMORY);
    // A blank Add form says why Remember is off.
    await expect(page.getByText("Write the fact first: there is nothing to remember yet.")).toBeVisible();
    problems.push(...(await scan(page, "memory", testInfo, true)));

    await page.getByRole("button", { name: "History", exact: true }).first().click();
    problems.push(...(await scan(page, "memory, history open", testInfo)));

    await page.getByRole("button", { name: "Edit", exact: true }).first().click();
    await expect(page.getByRole("form", { name: "Edit fact" })).toBeVisible();
    problems.push(...(await scan(page, "memory, editing", testInfo)));

    // 600 characters in: 500 kept, and the field says so.
    await page.goto(MEMORY);
    const fact = page.getByLabel("Fact", { exact: true });
    await fact.fill("x".repeat(600));
    await expect(fact).toHaveValue("x".repeat(500));
    await expect(page.getByRole("alert").filter({ hasText: "That was 600 characters" })).toContainText(
      "only the first 500 are kept. The last 100 were cut",
    );
    await expect(page.getByText("500 / 500 characters")).toBeVisible();
    problems.push(...(await scan(page, "memory, paste past the limit", testInfo)));

    await page.goto(`${MEMORY}?q=refund`);
    await expect(page.getByRole("status").filter({ hasText: /facts? match(es)? “refund”/ })).toHaveCount(1);
    problems.push(...(await scan(page, "memory, search", testInfo)));

    await page.goto(`${MEMORY}?preview=support&preview_q=refund`);
    await expect(page.getByLabel("Recall preview")).toBeVisible();
    problems.push(...(await scan(page, "memory, recall preview", testInfo)));
    expect(problems).toEqual([]);
  });
});

test.describe("an owner", () => {
  test.use({ storageState: storageStateOf("olivia") });

  test("the Memory page with its Inbox, and every settings page", async ({ page }, testInfo) => {
    const problems: string[] = [];
    for (const [state, path] of [
      ["memory (owner, inbox)", MEMORY],
      ["people", "/w/acme/settings"],
      ["channels", "/w/acme/settings/channels"],
      ["agents", "/w/acme/settings/agents"],
      ["audit", "/w/acme/settings/audit"],
      ["webhooks", "/w/acme/settings/webhooks"],
    ] as const) {
      await page.goto(path);
      problems.push(...(await scan(page, state, testInfo)));
    }
    expect(problems).toEqual([]);
  });

  test("keys: a key shown with its expiry reminder, a duplicate name refused, the revoke dialog, and no secret after revoke", async ({
    page,
  }, testInfo) => {
    const problems: string[] = [];
    await page.goto("/w/acme/settings/agents/scout");
    problems.push(...(await scan(page, "agent settings", testInfo)));

    const name = `a11y ${unique()}`;
    const form = page.getByRole("form", { name: "Create a key" });
    const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await form.getByLabel("Key name").fill(name);
    await form.getByLabel("Expires on (optional)").fill(inThreeDays);
    await form.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByText(`works until ${inThreeDays} (UTC)`)).toBeVisible();
    const row = page.getByRole("listitem", { name });
    await expect(row).toContainText("This key stops working in 3 days");
    problems.push(...(await scan(page, "key shown", testInfo)));

    // The same name again (other case): refused on the name field, what was typed kept.
    await form.getByLabel("Key name").fill(name.toUpperCase());
    await form.getByRole("button", { name: "Create key" }).click();
    await expect(form.getByLabel("Key name")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Key name")).toHaveValue(name.toUpperCase());
    await expect(form.getByText(`already has a key named “${name.toUpperCase()}”`)).toBeVisible();
    problems.push(...(await scan(page, "key name refused", testInfo)));

    await row.getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    problems.push(...(await scan(page, "revoke dialog", testInfo)));
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
    await expect(row).toContainText("Revoked");
    // Revoked: the secret and its "Copy it now" are gone from the page.
    await expect(page.getByText("Copy it now")).toHaveCount(0);
    await expect(page.getByLabel("New key")).toHaveCount(0);
    expect(problems).toEqual([]);
  });
});
