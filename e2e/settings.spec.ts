/**
 * Owner settings in a real browser. The e2e database is shared by every spec and
 * the others assert what the demo people see, so this spec never changes the
 * demo's own people or channels: it makes its own (unique names each run) and
 * acts on those.
 */
import { expect, test, type Page } from "@playwright/test";
import { SCOUT_KEY, storageStateOf } from "./demo";

const SETTINGS = "/w/acme/settings";
const MEMORY = "/w/acme/agents/scout/memory";

function api(page: Page, key: string) {
  const headers = { authorization: `Bearer ${key}` };
  return {
    recall: (channel: string, asker: string) => page.request.get(`/api/v1/recall?channel=${channel}&asker=${asker}`, { headers }),
    remember: (channel: string, asker: string, fact: string) =>
      page.request.post("/api/v1/memories", { headers, data: { channel, asker, fact } }),
  };
}

test.describe("olivia, acme's owner", () => {
  test.use({ storageState: storageStateOf("olivia") });

  test("invites a new person, who makes their account through the link and lands in Acme", async ({ page, browser }) => {
    const stamp = Date.now();
    const name = `Newcomer ${stamp}`;
    const email = `newcomer-${stamp}@acme.test`;
    await page.goto("/w/acme");
    await page.getByRole("link", { name: "Settings" }).click();
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Name (optional)").fill(name);
    await page.getByRole("button", { name: "Add person" }).click();
    const link = await page.getByLabel("Invite link").inputValue();
    expect(link).toMatch(/^http:\/\/localhost:\d+\/invite\/[\w-]{43}$/);
    // Invited is not in: they are listed apart until they accept.
    await expect(page.getByRole("list", { name: /^Invited \(\d+\)$/ }).getByRole("listitem", { name: email })).toBeVisible();
    await expect(page.getByRole("list", { name: "People", exact: true })).not.toContainText(email);

    // A browser of their own, signed in as no one.
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const newcomer = await context.newPage();
    await newcomer.goto(link);
    await expect(newcomer.getByRole("heading", { name: "Join Acme" })).toBeVisible();
    await expect(newcomer.getByLabel("Your name")).toHaveValue(name);
    await newcomer.getByLabel("Password", { exact: true }).fill("short");
    await newcomer.getByLabel("Confirm password").fill("short");
    await newcomer.getByRole("button", { name: "Create account and join" }).click();
    await expect(newcomer.getByRole("alert", { name: "Invite problem" })).toHaveText("Use at least 8 characters.");
    await newcomer.getByLabel("Password", { exact: true }).fill("a new long password");
    await newcomer.getByLabel("Confirm password").fill("a new long password");
    await newcomer.getByRole("button", { name: "Create account and join" }).click();
    await expect(newcomer).toHaveURL(/\/w\/acme$/);
    await expect(newcomer.getByRole("heading", { name: "Acme", level: 1 })).toBeVisible();
    await expect(newcomer.getByText("You are a member of this workspace.")).toBeVisible();
    await expect(newcomer.getByLabel("Signed in as")).toHaveText(name);

    // The link worked once; an unknown one reads the same.
    for (const url of [link, "/invite/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]) {
      await newcomer.goto(url);
      await expect(newcomer.getByRole("heading", { name: "This link doesn't work" })).toBeVisible();
    }

    // They can start a workspace of their own, and land on its settings as its owner.
    await newcomer.goto("/");
    await newcomer.getByLabel("Workspace name").fill(`Team ${stamp}`);
    await newcomer.getByRole("button", { name: "Start workspace" }).click();
    await expect(newcomer).toHaveURL(new RegExp(`/w/team-${stamp}[\\w-]*/settings$`));
    await expect(newcomer.getByRole("listitem", { name })).toContainText("owner");
    await context.close();

    await page.reload();
    await expect(page.getByRole("list", { name: "People", exact: true }).getByRole("listitem", { name })).toContainText(email);
    await expect(page.getByRole("listitem", { name: email })).toHaveCount(0);
  });

  test("removes max from a private channel: he no longer sees its fact, and it is not recalled for him", async ({ page, browser }) => {
    const channel = `e2e-private-${Date.now()}`;
    const fact = `The ${channel} launch is on a Friday.`;
    await page.goto(`${SETTINGS}/channels`);
    await page.getByLabel("Channel name").fill(channel);
    await page.getByLabel("Kind", { exact: true }).selectOption("private");
    await page.getByRole("button", { name: "Create channel" }).click();
    const card = page.getByRole("region", { name: `#${channel}` });
    await expect(card).toBeVisible();
    const channelId = (await card.getByLabel(`Id of #${channel}`).textContent()) ?? "";
    expect(channelId).toMatch(/^ch_/);
    const people = card.getByRole("list", { name: `People in #${channel}` });
    for (const person of ["Olivia Owen", "Max Mills"]) {
      await card.getByLabel(`Add a person to #${channel}`).selectOption({ label: person });
      await card.getByRole("button", { name: "Add", exact: true }).click();
      await page.getByRole("dialog", { name: `Add ${person} to #${channel}?` }).getByRole("button", { name: `Add ${person}` }).click();
      await expect(people).toContainText(person);
    }

    const scout = api(page, SCOUT_KEY);
    expect((await scout.remember(channelId, "olivia", fact)).status()).toBe(201);
    const max = await browser.newContext({ storageState: storageStateOf("max") });
    const maxPage = await max.newPage();
    await maxPage.goto(MEMORY);
    await expect(maxPage.getByText(fact, { exact: true })).toBeVisible();
    const before = await scout.recall(channelId, "max");
    expect(before.status()).toBe(200);
    expect(((await before.json()) as { facts: { body: string }[] }).facts.map((f) => f.body)).toContain(fact);

    await card.getByRole("button", { name: `Remove Max Mills from #${channel}` }).click();
    await page.getByRole("dialog", { name: `Remove Max Mills from #${channel}?` }).getByRole("button", { name: "Remove" }).click();
    await expect(people).not.toContainText("Max Mills");
    await maxPage.reload();
    await expect(maxPage.getByRole("heading", { name: "Scout's memory" })).toBeVisible();
    await expect(maxPage.getByText(fact, { exact: true })).toHaveCount(0);
    expect((await scout.recall(channelId, "max")).status()).toBe(403);
    // Olivia is still in it: the fact is hers to see, and recalled for her.
    expect((await scout.recall(channelId, "olivia")).status()).toBe(200);
    await max.close();
  });

  test("creates a key for scout that the API accepts, then revokes it and the API refuses it", async ({ page }) => {
    const name = `E2E key ${Date.now()}`;
    await page.goto(`${SETTINGS}/agents`);
    await page.getByRole("link", { name: "Keys and settings of Scout" }).click();
    await page.getByLabel("Key name").fill(name);
    await page.getByRole("button", { name: "Create key" }).click();
    const key = await page.getByLabel("New key").inputValue();
    expect(key).toMatch(/^mnemo_[\w-]{43}$/);
    await expect(page.getByText("won't show it again")).toBeVisible();

    const asOlivia = () => api(page, key).recall("general", "olivia");
    expect((await asOlivia()).status()).toBe(200);

    await page.reload();
    await expect(page.getByText(key)).toHaveCount(0);
    const row = page.getByRole("listitem", { name });
    await expect(row).toContainText(`${key.slice(0, 10)}…`);
    await expect(row).toContainText("Active");
    await row.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
    await expect(row).toContainText("Revoked");
    expect((await asOlivia()).status()).toBe(401);
    // The demo key is untouched.
    expect((await api(page, SCOUT_KEY).recall("general", "olivia")).status()).toBe(200);

    await page.getByRole("link", { name: "Audit list" }).click();
    const events = page.getByRole("list", { name: "Audit events" });
    await expect(events.getByRole("listitem").filter({ hasText: "Revoked a key" }).filter({ hasText: name })).toHaveCount(1);
  });
});

test.describe("olivia, managing agents", () => {
  test.use({ storageState: storageStateOf("olivia") });

  test("creates, renames and deletes an agent, confirming how many facts go with it", async ({ page }) => {
    const handle = `e2e-bot-${Date.now()}`;
    await page.goto(`${SETTINGS}/agents`);
    await page.getByLabel("Handle").fill(handle);
    await page.getByLabel("Name", { exact: true }).fill("E2E Bot");
    await page.getByRole("button", { name: "Create agent" }).click();
    await expect(page).toHaveURL(new RegExp(`/settings/agents/${handle}$`));
    await expect(page.getByRole("heading", { name: `E2E Bot @${handle}` })).toBeVisible();

    await page.getByLabel("Display name").fill("E2E Helper");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect(page.getByRole("heading", { name: `E2E Helper @${handle}` })).toBeVisible();

    await page.getByRole("button", { name: "Delete agent" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete E2E Helper and 0 facts?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Delete E2E Helper" }).click();
    await expect(page).toHaveURL(/\/settings\/agents$/);
    await expect(page.getByRole("list", { name: "Agents" })).not.toContainText(handle);
    await expect(page.getByRole("list", { name: "Agents" })).toContainText("@scout");
  });
});

test.describe("ana, a member", () => {
  test.use({ storageState: storageStateOf("ana") });

  test("sees no settings link, and every owner page is a 404", async ({ page }) => {
    await page.goto("/w/acme");
    await expect(page.getByRole("heading", { name: "Acme", level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: "Settings" })).toHaveCount(0);
    for (const path of ["", "/channels", "/agents", "/agents/scout", "/audit"]) {
      const response = await page.goto(`${SETTINGS}${path}`);
      expect(response?.status(), path || "/settings").toBe(404);
      await expect(page.getByRole("heading", { name: "Nothing here" })).toBeVisible();
    }
  });
});
