/**
 * Adding someone to a private channel shows them every fact kept there, so the
 * owner is told how many and must confirm; removing someone is confirmed too.
 * The e2e database is shared by every spec: #dm-ana is only looked at (the
 * question is cancelled), and the adding is done on a channel made here.
 */
import { expect, test, type Page } from "@playwright/test";
import { SCOUT_KEY, storageStateOf } from "./demo";

const CHANNELS = "/w/acme/settings/channels";
const AUDIT = "/w/acme/settings/audit";

async function recall(page: Page, channel: string, asker: string) {
  return page.request.get(`/api/v1/recall?channel=${channel}&asker=${asker}`, {
    headers: { authorization: `Bearer ${SCOUT_KEY}` },
  });
}

async function remember(page: Page, channel: string, fact: string) {
  const response = await page.request.post("/api/v1/memories", {
    headers: { authorization: `Bearer ${SCOUT_KEY}` },
    data: { channel, asker: "olivia", fact },
  });
  expect(response.status()).toBe(201);
}

test.describe("olivia, acme's owner", () => {
  test.use({ storageState: storageStateOf("olivia") });

  test("nobody is preselected, and adding to a DM asks first, naming the channel", async ({ page }) => {
    await page.goto(CHANNELS);
    const card = page.getByRole("region", { name: "#dm-ana" });
    const picker = card.getByLabel("Add a person to #dm-ana");
    await expect(picker).toHaveValue("");
    await expect(picker.locator("option:checked")).toHaveText("Choose a person…");

    // Add with no one chosen: the browser keeps the form back; nothing is asked, nothing sent.
    await card.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);

    await picker.selectOption({ label: "Gus Gray" });
    await card.getByRole("button", { name: "Add", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Add Gus Gray to #dm-ana?" });
    await expect(dialog).toContainText("Gus Gray will be able to see");
    await expect(dialog).toContainText("#dm-ana");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card.getByRole("list", { name: "People in #dm-ana" })).not.toContainText("Gus Gray");
    expect((await recall(page, "dm-ana", "gus")).status()).toBe(403);
  });

  test("adding Gus to a private channel says how many facts he will see and needs confirming; so does removing him", async ({ page }) => {
    const name = `e2e-members-${Date.now()}`;
    const title = `#${name}`;
    await page.goto(CHANNELS);
    await page.getByLabel("Channel name").fill(name);
    await page.getByLabel("Kind", { exact: true }).selectOption("private");
    await page.getByRole("button", { name: "Create channel" }).click();
    const card = page.getByRole("region", { name: title });
    const people = card.getByRole("list", { name: `People in ${title}` });
    const picker = card.getByLabel(`Add a person to ${title}`);
    const channelId = (await card.getByLabel(`Id of ${title}`).textContent()) ?? "";
    expect(channelId).toMatch(/^ch_/);

    // Olivia first: nothing kept there yet, and the question says so.
    await picker.selectOption({ label: "Olivia Owen" });
    await card.getByRole("button", { name: "Add", exact: true }).click();
    const empty = page.getByRole("dialog", { name: `Add Olivia Owen to ${title}?` });
    await expect(empty).toContainText("There are none yet.");
    await empty.getByRole("button", { name: "Add Olivia Owen" }).click();
    await expect(people).toContainText("Olivia Owen");
    await expect(picker).toHaveValue("");

    const kept = [`The ${name} budget is 40k.`, `The ${name} launch slipped a week.`];
    for (const fact of kept) await remember(page, channelId, fact);
    await page.reload();

    // Gus: the question names the number, and cancelling changes nothing.
    await picker.selectOption({ label: "Gus Gray" });
    await card.getByRole("button", { name: "Add", exact: true }).click();
    const ask = page.getByRole("dialog", { name: `Add Gus Gray to ${title}?` });
    await expect(ask).toContainText(`Gus Gray will be able to see 2 facts kept in ${title}`);
    await expect(ask).not.toContainText("budget");
    await page.keyboard.press("Escape");
    await expect(ask).toHaveCount(0);
    await expect(people).not.toContainText("Gus Gray");
    expect((await recall(page, channelId, "gus")).status()).toBe(403);

    await card.getByRole("button", { name: "Add", exact: true }).click();
    await ask.getByRole("button", { name: "Add and show 2 facts" }).click();
    await expect(page.getByText(`Gus Gray was added and can now see 2 facts kept in ${title}.`)).toBeVisible();
    await expect(people).toContainText("Gus Gray");
    const seen = await recall(page, channelId, "gus");
    expect(seen.status()).toBe(200);
    const bodies = ((await seen.json()) as { facts: { body: string; scope: string }[] }).facts;
    expect(bodies.filter((fact) => fact.scope === "channel").map((fact) => fact.body).sort()).toEqual([...kept].sort());

    // The audit list records it, with the count and never the text.
    await page.goto(AUDIT);
    const entry = page.getByRole("listitem").filter({ hasText: `Gus Gray to ${title}` });
    await expect(entry).toContainText("(can now see 2 facts)");
    await expect(entry).not.toContainText("budget");

    // Removing him asks too; cancel first, then confirm.
    await page.goto(CHANNELS);
    await card.getByRole("button", { name: `Remove Gus Gray from ${title}` }).click();
    const leave = page.getByRole("dialog", { name: `Remove Gus Gray from ${title}?` });
    await expect(leave).toContainText("They will stop seeing its 2 facts");
    await leave.getByRole("button", { name: "Cancel" }).click();
    await expect(people).toContainText("Gus Gray");
    await card.getByRole("button", { name: `Remove Gus Gray from ${title}` }).click();
    await leave.getByRole("button", { name: "Remove" }).click();
    await expect(people).not.toContainText("Gus Gray");
    expect((await recall(page, channelId, "gus")).status()).toBe(403);
  });
});
