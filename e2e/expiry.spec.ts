/**
 * Expiry on the Memory page (issue #15), as Max: a fact added "Until" tomorrow is
 * recalled and says so on its card; once its day has passed (set in the server's
 * database, as a day going by would) it leaves recall and the page's lists for
 * Expired, which the quota line counts; Renew gives it a new last day and brings it back.
 */
import { expect, test, type Page } from "@playwright/test";
import { connect } from "@/db/client";
import { dayInWords } from "@/lib/day-words";
import { SCOUT_KEY, storageStateOf } from "./demo";

const MEMORY = "/w/acme/agents/scout/memory";
const DAY_MS = 86_400_000;
const dayFromNow = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

/** The bodies scout recalls for Max in his direct message, over the API. */
async function recalledForMax(page: Page): Promise<string[]> {
  const response = await page.request.get("/api/v1/recall?channel=dm-max&asker=max", {
    headers: { authorization: `Bearer ${SCOUT_KEY}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { facts: { body: string }[] }).facts.map((fact) => fact.body);
}

/** Moves a fact's last day, straight in the server's database (its trigger renews kept recall answers). */
async function setValidUntil(body: string, day: string): Promise<void> {
  const url = process.env.MNEMO_E2E_DATABASE_URL;
  if (!url) throw new Error("MNEMO_E2E_DATABASE_URL is set by playwright.config.ts");
  const db = connect(url);
  try {
    const result = await db.$client.execute({ sql: "UPDATE facts SET valid_until = ? WHERE body = ?", args: [day, body] });
    expect(result.rowsAffected).toBe(1);
  } finally {
    db.$client.close();
  }
}

test.use({ storageState: storageStateOf("max") });

test("a fact until tomorrow is recalled; expired it moves to Expired and out of recall; Renew brings it back", async ({ page }) => {
  const body = `Max is covering the front desk this week (${Date.now()}).`;
  const tomorrow = dayFromNow(1);
  const groups = page.getByRole("list", { name: "Just you facts" });
  const expired = page.getByRole("list", { name: "Expired facts" });
  await page.goto(MEMORY);

  const form = page.getByRole("form", { name: "Remember a fact" });
  await form.getByLabel("Fact", { exact: true }).fill(body);
  await form.getByLabel("Until (optional)").fill(tomorrow);
  await form.getByRole("button", { name: "Remember for just you" }).click();
  await expect(form.getByText("Scout will remember that.")).toBeVisible();
  const card = groups.getByRole("listitem").filter({ has: page.getByText(body, { exact: true }) });
  await expect(card).toContainText(`until ${dayInWords(tomorrow)}`);
  await expect(form.getByLabel("Until (optional)")).toHaveValue("");
  expect(await recalledForMax(page)).toContain(body);

  await setValidUntil(body, dayFromNow(-1));
  await page.reload();
  await expect(card).toHaveCount(0);
  const item = expired.getByRole("listitem").filter({ has: page.getByText(body, { exact: true }) });
  await expect(item).toContainText(`Ended after ${dayInWords(dayFromNow(-1))}`);
  await expect(page.getByText(/\d+ of 2,000 facts kept · \d+ expired could be forgotten/)).toBeVisible();
  expect(await recalledForMax(page)).not.toContain(body);

  const later = dayFromNow(7);
  await item.getByRole("button", { name: "Renew" }).click();
  await item.getByLabel("Holds until").fill(later);
  await item.getByRole("form", { name: "Renew fact" }).getByRole("button", { name: "Renew" }).click();
  await expect(page.getByText(`Renewed: recalled again until ${dayInWords(later)}.`)).toBeVisible();
  await expect(card).toContainText(`until ${dayInWords(later)}`);
  await expect(item).toHaveCount(0);
  expect(await recalledForMax(page)).toContain(body);
});
