import { expect, test, type Page } from "@playwright/test";
import { SCOUT_KEY, storageStateOf, type PersonId, DEMO_FACTS, escapeRegExp } from "./demo";

const MEMORY = "/w/acme/agents/scout/memory";

const DEMO = DEMO_FACTS;
type DemoFact = keyof typeof DEMO;

/** What each demo person may see of scout's demo facts (visibleTo in lib/memory/rules.ts), and what they must not. */
const SEES: Record<Exclude<PersonId, "gina">, DemoFact[]> = {
  ana: ["releases", "sso", "refunds", "pairing", "anaPerson"],
  gus: ["releases", "sso", "refunds", "gusPerson"],
  olivia: ["releases", "sso", "refunds", "budget"],
  max: ["releases", "sso", "refunds", "budget", "pairing", "maxPerson"],
};

function factCard(page: Page, body: string) {
  return page.getByRole("listitem").filter({ has: page.getByText(body, { exact: true }) });
}

/** Recall over the API as scout, in a place: the facts' bodies. */
async function recalled(page: Page, channel: string, asker: string): Promise<string[]> {
  const response = await page.request.get(`/api/v1/recall?channel=${channel}&asker=${asker}`, {
    headers: { authorization: `Bearer ${SCOUT_KEY}` },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { facts: { body: string }[] };
  return body.facts.map((fact) => fact.body);
}

for (const [person, visible] of Object.entries(SEES) as [Exclude<PersonId, "gina">, DemoFact[]][]) {
  test.describe(`${person}'s view`, () => {
    test.use({ storageState: storageStateOf(person) });

    test(`sees exactly the demo facts ${person} may see`, async ({ page }) => {
      await page.goto(MEMORY);
      await expect(page.getByRole("heading", { name: "Scout's memory" })).toBeVisible();
      for (const key of Object.keys(DEMO) as DemoFact[]) {
        const card = page.getByText(DEMO[key], { exact: true });
        if (visible.includes(key)) await expect(card, `${person} sees ${key}`).toBeVisible();
        else await expect(card, `${person} must not see ${key}`).toHaveCount(0);
      }
    });
  });
}

test.describe("owner controls", () => {
  test("only olivia gets edit controls on workspace facts", async ({ browser }) => {
    for (const person of ["olivia", "ana", "max", "gus"] as const) {
      const context = await browser.newContext({ storageState: storageStateOf(person) });
      const page = await context.newPage();
      await page.goto(MEMORY);
      const card = factCard(page, DEMO.releases);
      await expect(card.getByRole("button", { name: "History" })).toBeVisible();
      await expect(card.getByRole("button", { name: "Edit" })).toHaveCount(person === "olivia" ? 1 : 0);
      await expect(card.getByRole("button", { name: "Forget", exact: true })).toHaveCount(person === "olivia" ? 1 : 0);
      await expect(page.getByRole("radio", { name: "Everyone in Acme" })).toHaveCount(person === "olivia" ? 1 : 0);
      await context.close();
    }
  });
});

test.describe("ana curates her memory", () => {
  test.use({ storageState: storageStateOf("ana") });

  test("adds, edits, pins, forgets and restores a fact; recall and history follow each change", async ({ page }) => {
    const text = `Ana's standup is at 9:15 (${Date.now()})`;
    const corrected = `Ana's standup moved to 9:30 (${Date.now()})`;
    await page.goto(MEMORY);

    // Add "Just me": pinned, and recalled in her DM only.
    await page.getByLabel("Fact", { exact: true }).fill(text);
    await expect(page.getByText(`${text.length} / 500 characters`)).toBeVisible();
    await page.getByRole("button", { name: "Remember for just you" }).click();
    await expect(page.getByText("Scout will remember that.")).toBeVisible();
    const justYou = page.getByRole("list", { name: "Just you facts" });
    await expect(justYou.getByText(text)).toBeVisible();
    await expect(factCard(page, text).getByRole("img", { name: "Pinned" })).toBeVisible();
    expect(await recalled(page, "dm-ana", "ana")).toContain(text);
    expect(await recalled(page, "general", "ana")).not.toContain(text);

    // Edit in place: the source becomes ana, marked corrected.
    await factCard(page, text).getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Fact text").fill(corrected);
    await page.getByRole("button", { name: "Save" }).click();
    const card = factCard(page, corrected);
    await expect(card).toBeVisible();
    await expect(card.getByText("from @ana (corrected)")).toBeVisible();
    const afterEdit = await recalled(page, "dm-ana", "ana");
    expect(afterEdit).toContain(corrected);
    expect(afterEdit).not.toContain(text);

    // Unpin, then pin again.
    await card.getByRole("button", { name: "Unpin" }).click();
    await expect(card.getByRole("button", { name: "Pin", exact: true })).toBeVisible();
    await expect(card.getByRole("img", { name: "Pinned" })).toHaveCount(0);
    await card.getByRole("button", { name: "Pin", exact: true }).click();
    await expect(card.getByRole("button", { name: "Unpin" })).toBeVisible();

    // History shows every change with who made it.
    await card.getByRole("button", { name: "History" }).click();
    const history = card.getByRole("list", { name: "History" });
    await expect(history.getByRole("listitem")).toHaveCount(4);
    await expect(history).toContainText("Ana Alves remembered it");
    await expect(history).toContainText("Ana Alves corrected it");
    await expect(history).toContainText("Ana Alves unpinned it");
    await expect(history).toContainText("Ana Alves pinned it");
    await expect(history.getByRole("deletion")).toHaveText(text);
    await expect(history.getByRole("insertion")).toHaveText(corrected);

    // Forget in one step (it can be undone); the toast names the fact; recall drops it at once.
    await card.getByRole("button", { name: "Forget", exact: true }).click();
    await expect(page.getByRole("status", { name: "Notifications" })).toContainText(`Forgot “${corrected}”`);
    await expect(justYou.getByText(corrected)).toHaveCount(0);
    const forgotten = page.getByRole("list", { name: "Recently forgotten facts" });
    await expect(forgotten.getByText(corrected)).toBeVisible();
    expect(await recalled(page, "dm-ana", "ana")).not.toContain(corrected);

    // Restore from Recently forgotten, from the keyboard: when other specs' facts make the page long, this Restore
    // is the last thing on it, under the Undo toast at the window's bottom, which waits while a pointer is on it.
    await forgotten.getByRole("listitem").filter({ hasText: corrected }).getByRole("button", { name: "Restore" }).focus();
    await page.keyboard.press("Enter");
    await expect(justYou.getByText(corrected)).toBeVisible();
    expect(await recalled(page, "dm-ana", "ana")).toContain(corrected);
    await factCard(page, corrected).getByRole("button", { name: "History" }).click();
    await expect(factCard(page, corrected).getByRole("list", { name: "History" })).toContainText("Ana Alves restored it");
  });

  test("the undo after Forget brings the fact back", async ({ page }) => {
    const text = `Ana reviews billing PRs on Fridays (${Date.now()})`;
    await page.goto(MEMORY);
    await page.getByLabel("Fact", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Remember for just you" }).click();
    // Exactly: a fact of another run or spec that looks like this one adds "Forget this one" to the card.
    await factCard(page, text).getByRole("button", { name: "Forget", exact: true }).click();
    await page.getByRole("status", { name: "Notifications" }).getByRole("button", { name: "Undo" }).click();
    await expect(page.getByRole("list", { name: "Just you facts" }).getByText(text)).toBeVisible();
  });

  test("refuses secrets and says why; a duplicate refreshes instead of repeating", async ({ page }) => {
    await page.goto(MEMORY);
    await page.getByLabel("Fact", { exact: true }).fill("Our staging key is sk-live1234567890abcdefghijkl");
    await page.getByRole("button", { name: "Remember for just you" }).click();
    await expect(page.getByRole("alert", { name: "Add fact problem" })).toContainText("looks like an API key");

    const text = `Ana's laptop is a ThinkPad (${Date.now()})`;
    await page.getByLabel("Fact", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Remember for just you" }).click();
    await expect(page.getByText("Scout will remember that.")).toBeVisible();
    await page.getByLabel("Fact", { exact: true }).fill(`  ${text.toUpperCase()}!! `);
    await page.getByRole("button", { name: "Remember for just you" }).click();
    await expect(page.getByText("Scout already knew that")).toBeVisible();
    await expect(page.getByRole("list", { name: "Just you facts" }).getByText(text, { exact: true })).toHaveCount(1);
  });

  test("a fact for a channel she can read, picked by name", async ({ page }) => {
    const text = `Support rotas change on Mondays (${Date.now()})`;
    await page.goto(MEMORY);
    await page.getByLabel("Fact", { exact: true }).fill(text);
    await page.getByRole("radio", { name: "Channels" }).check();
    const channel = page.getByRole("form", { name: "Remember a fact" }).getByLabel("Channel", { exact: true });
    await expect(channel.locator("option")).toContainText(["#general", "#support", "Your DM"]);
    await expect(channel.locator("option", { hasText: "#leadership" })).toHaveCount(0);
    await channel.selectOption({ label: "#support" });
    await page.getByRole("button", { name: "Remember for #support" }).click();
    const card = page.getByRole("list", { name: "Channels facts" }).getByRole("listitem").filter({ hasText: text });
    await expect(card.getByText("#support", { exact: true })).toBeVisible();
    await expect(card.getByText("Told by Ana Alves")).toBeVisible();
    expect(await recalled(page, "support", "gus")).toContain(text);
    expect(await recalled(page, "general", "ana")).not.toContain(text);
  });

  test("forged requests change nothing and get the 'no such fact' answer", async ({ page }) => {
    await page.goto(MEMORY);
    const releases = factCard(page, DEMO.releases);
    const releasesId = await releases.getAttribute("data-fact-id");
    expect(releasesId).toBeTruthy();

    // Edit her own fact, but rewrite the request to name the workspace fact instead.
    await page.route("**/*", async (route) => {
      const request = route.request();
      if (request.method() === "POST" && request.headers()["next-action"] && request.postData()?.includes('"version"')) {
        const forged = request.postData()!.replace(/"factId":"[^"]+"/, `"factId":"${releasesId}"`);
        await route.continue({ postData: forged });
      } else {
        await route.continue();
      }
    });
    const own = factCard(page, DEMO.anaPerson);
    await own.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Fact text").fill("Releases are cancelled.");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("alert", { name: "Edit problem" })).toHaveText("There is no such fact you can change.");
    await page.unroute("**/*");

    // Add with a workspace scope she is not offered, by adding the option to the form herself.
    const forgedText = `Forged workspace fact (${Date.now()})`;
    await page.reload();
    await page.getByLabel("Fact", { exact: true }).fill(forgedText);
    await page.evaluate(() => {
      const radio = document.querySelector<HTMLInputElement>('input[name="scope"][value="person"]')!;
      radio.value = "workspace";
    });
    await page.getByRole("button", { name: "Remember for just you" }).click();
    await expect(page.getByRole("alert", { name: "Add fact problem" })).toHaveText("You can't keep a fact there.");

    await page.reload();
    await expect(page.getByText(DEMO.releases, { exact: true })).toBeVisible();
    await expect(page.getByText("Releases are cancelled.")).toHaveCount(0);
    await expect(page.getByText(forgedText)).toHaveCount(0);
    await expect(page.getByText(DEMO.anaPerson, { exact: true })).toBeVisible();
    expect(await recalled(page, "general", "ana")).toContain(DEMO.releases);
  });

  test("search and filters live in the URL, and the back button restores them", async ({ page }) => {
    await page.goto(MEMORY);
    await page.getByRole("searchbox", { name: "Search facts" }).fill("refund");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/q=refund/);
    await expect(page.getByText(DEMO.refunds)).toBeVisible();
    await expect(page.getByText(DEMO.releases)).toHaveCount(0);

    await page.getByLabel("Kept by").selectOption("people");
    await page.getByRole("searchbox", { name: "Search facts" }).fill("");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/kept=people/);
    await expect(page.getByText(DEMO.releases)).toBeVisible();
    await expect(page.getByText(DEMO.refunds)).toHaveCount(0);

    await page.goBack();
    await expect(page).toHaveURL(/q=refund/);
    await expect(page.getByText(DEMO.refunds)).toBeVisible();
    await expect(page.getByRole("searchbox", { name: "Search facts" })).toHaveValue("refund");
  });

  test("preview recall shows exactly what scout gets in her DM, and refuses a place she is not in", async ({ page }) => {
    await page.goto(`${MEMORY}?preview=dm-ana`);
    const preview = page.getByLabel("Recall preview");
    // Other specs keep and forget Ana's facts meanwhile, and the page refreshes itself when they do:
    // the preview is compared with the API as one snapshot, read again until the two agree.
    const items = preview.getByRole("list", { name: "Recalled facts" }).getByRole("listitem");
    await expect(async () => {
      const apiFacts = await recalled(page, "dm-ana", "ana");
      await expect(items).toHaveText(apiFacts.map((body) => new RegExp(escapeRegExp(body))), { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(preview.getByLabel("Prompt section")).toContainText("## What you remember");
    await expect(preview.getByLabel("Prompt section")).toContainText(DEMO.anaPerson);
    await expect(preview.getByLabel("Prompt section")).not.toContainText(DEMO.maxPerson);

    await page.goto(`${MEMORY}?preview=leadership`);
    await expect(page.getByRole("alert", { name: "Preview problem" })).toBeVisible();
    await expect(page.getByText(DEMO.budget)).toHaveCount(0);
  });
});

test.describe("two people editing one fact", () => {
  test("the second sees the conflict and the current text", async ({ browser }) => {
    const oliviaContext = await browser.newContext({ storageState: storageStateOf("olivia") });
    const maxContext = await browser.newContext({ storageState: storageStateOf("max") });
    const first = await oliviaContext.newPage();
    const second = await maxContext.newPage();
    // A leadership fact both olivia and max can change.
    const text = `Leadership offsite is in March (${Date.now()})`;
    await first.goto(MEMORY);
    await first.getByLabel("Fact", { exact: true }).fill(text);
    await first.getByRole("radio", { name: "Channels" }).check();
    await first.getByRole("form", { name: "Remember a fact" }).getByLabel("Channel", { exact: true }).selectOption({ label: "#leadership" });
    await first.getByRole("button", { name: "Remember for #leadership" }).click();
    await expect(factCard(first, text)).toBeVisible();

    await second.goto(MEMORY);
    await factCard(first, text).getByRole("button", { name: "Edit" }).click();
    await factCard(second, text).getByRole("button", { name: "Edit" }).click();

    await first.getByLabel("Fact text").fill(`${text} — in Lisbon`);
    await first.getByRole("button", { name: "Save" }).click();
    await expect(first.getByText(`${text} — in Lisbon`)).toBeVisible();

    await second.getByLabel("Fact text").fill(`${text} — in Porto`);
    await second.getByRole("button", { name: "Save" }).click();
    const conflict = second.getByRole("alert", { name: "Edit conflict" });
    await expect(conflict).toContainText(`${text} — in Lisbon`);
    await conflict.getByRole("button", { name: "Keep mine and edit on" }).click();
    await second.getByRole("button", { name: "Save" }).click();
    await expect(second.getByText(`${text} — in Porto`)).toBeVisible();
    await oliviaContext.close();
    await maxContext.close();
  });
});
