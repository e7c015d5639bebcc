/**
 * Preview recall on the Memory page, as a person uses it: a place, the question the
 * agent is asked and a token budget in; the ranking, each fact's receipt and what was
 * left out and why back, matching what the agent API answers; bad input told by its
 * field with what was typed kept.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { DEMO_FACTS, SCOUT_KEY, escapeRegExp, storageStateOf } from "./demo";

const MEMORY = "/w/acme/agents/scout/memory";

test.use({ storageState: storageStateOf("ana") });

/** The preview form, filled and sent as a person would. */
async function previewRecall(page: Page, place: string, question: string, budget = "") {
  const form = page.getByRole("form", { name: "Preview recall" });
  await form.getByLabel("Place").selectOption({ label: place });
  await form.getByLabel("What is the agent asked?").fill(question);
  await form.getByLabel("Budget in tokens").fill(budget);
  await form.getByRole("button", { name: "Preview recall" }).click();
}

/** Scout's recall over the API in #support for ana: what the preview must agree with. */
async function recalled(page: Page, q: string, budget?: number) {
  const response = await page.request.post("/api/v1/recall", {
    headers: { authorization: `Bearer ${SCOUT_KEY}` },
    data: { channel: "support", asker: "ana", q, budget },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { facts: { body: string; why: { pinned: boolean } }[]; considered: number; tokens: number };
}

type Recalled = Awaited<ReturnType<typeof recalled>>;

/**
 * The page updates itself when Scout's memory changes (other specs write to #support while
 * this one runs), so the preview is compared with the API, and with itself, as one snapshot:
 * read again until the API and the page agree. `alsoOf` checks more of the same snapshot
 * (positions taken from it can be stale a refresh later).
 */
async function previewMatchingApi(
  page: Page,
  q: string,
  alsoOf?: (api: Recalled, items: Locator) => Promise<void>,
  budget?: number,
) {
  const preview = page.getByLabel("Recall preview");
  const items = preview.getByRole("list", { name: "Recalled facts" }).getByRole("listitem");
  await expect(async () => {
    const api = await recalled(page, q, budget);
    await expect(preview.getByText(`would recall ${api.facts.length} of ${api.considered} facts that apply here`)).toBeVisible({ timeout: 1_000 });
    // In its parentheses: "0 tokens" alone is also inside a left-out fact's "did not fit the budget of 80 tokens".
    await expect(preview.getByText(`(${api.tokens} tokens)`)).toBeVisible({ timeout: 1_000 });
    await expect(items).toHaveText(api.facts.map((fact) => new RegExp(escapeRegExp(fact.body))), { timeout: 1_000 });
    await alsoOf?.(api, items);
  }).toPass({ timeout: 20_000 });
}

test("ana previews Scout in #support asking 'refund approval': refunds right after the pinned fact, with its receipt", async ({ page }) => {
  await page.goto(MEMORY);
  await previewRecall(page, "#support", "refund approval");
  await expect(page).toHaveURL(/preview=support/);

  const preview = page.getByLabel("Recall preview");
  await expect(preview.getByText("By the question (words only)")).toBeVisible();
  await previewMatchingApi(page, "refund approval", async (api, items) => {
    // Other specs may pin facts of their own in #support: the refunds fact comes right after the pinned ones.
    const pinned = api.facts.filter((fact) => fact.why.pinned).length;
    expect(api.facts.slice(0, pinned).map((fact) => fact.body)).toContain(DEMO_FACTS.releases);
    await expect(items.nth(0)).toContainText(/Rank 1 · pinned/, { timeout: 1_000 });
    const refunds = items.nth(pinned);
    await expect(refunds).toContainText(DEMO_FACTS.refunds, { timeout: 1_000 });
    await expect(refunds).toContainText(new RegExp(`Rank ${pinned + 1} · matched .* · score \\d`), { timeout: 1_000 });
    await expect(refunds).toContainText("“refund”", { timeout: 1_000 });
    await expect(refunds).toContainText("“approval”", { timeout: 1_000 });
  });
  await expect(preview.getByLabel("Prompt section")).toContainText(DEMO_FACTS.refunds);

  // Announced politely, and the section can be scrolled from the keyboard.
  await expect(page.getByRole("status").filter({ hasText: "would recall" })).toContainText("In #support, Scout would recall");
  await expect(preview.getByLabel("Prompt section")).toHaveAttribute("tabindex", "0");
  // What was asked stays in the form.
  await expect(page.getByLabel("What is the agent asked?")).toHaveValue("refund approval");
});

test("a tiny budget leaves facts out, each saying it did not fit the budget", async ({ page }) => {
  const api = await recalled(page, "refund approval");
  // Half of what the whole answer takes: facts others add or forget meanwhile cannot make it all fit.
  const budget = String(Math.floor(api.tokens / 2));
  await page.goto(MEMORY);
  await previewRecall(page, "#support", "refund approval", budget);

  const preview = page.getByLabel("Recall preview");
  const leftOut = preview.getByRole("list", { name: /Left out/ }).getByRole("listitem");
  await expect(leftOut.first()).toContainText(`Did not fit the budget of ${budget} tokens`);
  // The preview is what the API answers with the same budget, and lists every fact it left out.
  await previewMatchingApi(
    page,
    "refund approval",
    async (answer) => {
      expect(answer.facts.length).toBeLessThan(answer.considered);
      await expect(leftOut).toHaveCount(answer.considered - answer.facts.length, { timeout: 1_000 });
    },
    Number(budget),
  );
  await expect(page.getByLabel("Budget in tokens")).toHaveValue(budget);
});

test("bad input is told next to its field, and what was typed stays", async ({ page }) => {
  await page.goto(MEMORY);
  await previewRecall(page, "#support", "refund approval", "0");
  const budget = page.getByLabel("Budget in tokens");
  await expect(budget).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("A budget is at least 1 token.", { exact: true })).toBeVisible();
  await expect(budget).toHaveAccessibleDescription(/A budget is at least 1 token\./);
  await expect(budget).toHaveValue("0");
  await expect(page.getByLabel("What is the agent asked?")).toHaveValue("refund approval");
  await expect(page.getByLabel("Recall preview")).toHaveCount(0);

  await previewRecall(page, "#support", "refund approval", "lots");
  await expect(page.getByText("Write the budget as a whole number of tokens, such as 500.", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Budget in tokens")).toHaveValue("lots");

  const long = "refund ".repeat(300);
  await previewRecall(page, "#support", long, "");
  const question = page.getByLabel("What is the agent asked?");
  await expect(question).toHaveAccessibleDescription(/Keep the question within 2,000 characters\./);
  await expect(question).toHaveValue(long);
  await expect(page.getByRole("status").filter({ hasText: "Nothing previewed" })).toBeVisible();
});
