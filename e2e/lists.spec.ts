/**
 * The Memory page with many facts (issue #17): one name per scope on every
 * surface, the recall limit marked in the place a person looks at, a "Just you"
 * fact that reaches no place warned about, paging ("26–50 of 51", focus on the
 * group's heading), the sort by most recalled, empty states, and the keyboard shortcuts. Ana's DM
 * gets 50 more facts (more than the 40 recalled), so this spec runs its own
 * server on a database of its own, seeded with the demo (servers.ts).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_FACTS, DEMO_PASSWORD } from "./demo";
import { call, exited, startServer, waitUntilReady, type Server } from "./servers";

const PORT = 3198;
const MEMORY = "/w/acme/agents/scout/memory";
const SCOPES = ["Everyone in Acme", "Channels", "Just you"];
// The names issue #17 found beside those: none may come back on any surface.
const SECOND_NAMES = /Just me|This workspace|Conversations|Add a fact|Your direct message|Group message|#dm-|#group-/;
const ANAS = Array.from({ length: 50 }, (_, i) => `Ana's note ${i + 1}: the ${["red", "blue", "green", "gold", "grey"][i % 5]} folder ${i * 7} holds item ${i}.`);

test.describe.configure({ mode: "serial" });
test.use({ baseURL: `http://localhost:${PORT}`, storageState: { cookies: [], origins: [] } });

let server: Server;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "mnemo-lists-")), "mnemo.db");
  // Recall counts written within 100 ms, so the sort by most recalled sees them without a wait worth the name.
  server = startServer(PORT, file, { MNEMO_DEMO: "1", LOG_LEVEL: "warn", MNEMO_USAGE_FLUSH_MS: "100" });
  await waitUntilReady(server);
  // One at a time, so each is newer than the last: the 40 recalled are the 39 newest and the pinned one.
  for (const fact of ANAS) {
    const kept = await call(PORT, "POST", "/api/v1/memories", { channel: "dm-ana", asker: "ana", fact, scope: "person" });
    expect("status" in kept && kept.status).toBe(201);
  }
});

test.afterAll(async () => {
  server?.process.kill("SIGTERM");
  if (server) await exited(server);
});

async function signIn(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
  return page;
}

// A card is named by its text; a look-alike note inside another card may quote it too.
const card = (page: Page, body: string) => page.getByRole("listitem", { name: body, exact: true });
const marker = (page: Page, body: string) => card(page, body).locator("[data-not-recalled]");

test("the recall limit is marked in Ana's DM, and nowhere in Max's", async ({ browser }) => {
  const ana = await signIn(browser, "ana@acme.test");
  await ana.goto(MEMORY);
  await expect(ana.getByText(/In your DM with Scout, 53 facts apply/)).toBeVisible();
  await expect(ana.getByText("Scout has no hidden memory", { exact: false })).toHaveCount(0);
  // The newest is recalled; the older workspace fact and the oldest of hers are beyond the 40.
  await expect(card(ana, ANAS[49])).toHaveCount(1);
  await expect(marker(ana, ANAS[49])).toHaveCount(0);
  await expect(marker(ana, DEMO_FACTS.releases)).toHaveCount(0); // pinned: recalled first
  await expect(marker(ana, DEMO_FACTS.sso)).toHaveText(
    "Not recalled in your DM with Scout: 40 newer or pinned facts come first — ask about it to recall it.",
  );
  // Paging says where it is and keeps focus at the list's top (her 50 and the demo's one).
  const justYou = ana.locator("#group-person-heading");
  await expect(justYou.locator("[data-range]")).toHaveText("1–25 of 51");
  await ana.getByRole("navigation", { name: "Just you pages" }).getByRole("link", { name: "Older facts →" }).click();
  await expect(justYou.locator("[data-range]")).toHaveText("26–50 of 51");
  await expect(justYou).toBeFocused();
  // 26–50 holds the 39th-newest of hers (recalled) and older ones beyond the limit.
  await expect(marker(ana, ANAS[5])).toBeVisible();
  await expect(card(ana, ANAS[20])).toHaveCount(1);
  await expect(marker(ana, ANAS[20])).toHaveCount(0);
  // What recall itself returns agrees: the oldest of hers is not in it, the newest is.
  const recalled = await call(PORT, "GET", "/api/v1/recall?channel=dm-ana&asker=ana");
  const body = "body" in recalled ? recalled.body : "";
  expect(body).toContain(ANAS[49]);
  expect(body).not.toContain(ANAS[0]);

  const max = await signIn(browser, "max@acme.test");
  await max.goto(MEMORY);
  await expect(max.getByText(/Scout has no hidden memory/)).toBeVisible();
  await expect(max.locator("[data-not-recalled]")).toHaveCount(0);
});

test("one name per scope on every surface", async ({ browser }) => {
  const olivia = await signIn(browser, "olivia@acme.test");
  await olivia.goto(MEMORY);
  // The tab says what the heading says, not the handle.
  await expect(olivia).toHaveTitle("Scout's memory · Acme · Mnemo");
  const headings = await olivia.locator("[data-results-heading]").allInnerTexts();
  expect(headings.map((h) => h.replace(/\s*\(\d+\)$/, ""))).toEqual(SCOPES);
  expect(await olivia.locator("#filter-scope option").allInnerTexts()).toEqual(["All scopes", ...SCOPES]);
  const add = olivia.getByRole("form", { name: "Remember a fact" });
  for (const name of SCOPES) await expect(add.getByRole("radio", { name, exact: true })).toHaveCount(1);
  expect(await olivia.locator("header dt").allInnerTexts()).toEqual(SCOPES);
  expect(await olivia.locator("main").innerText()).not.toMatch(SECOND_NAMES);
  // An empty group says what to do next; under a search that found nothing, that it found nothing.
  await expect(olivia.locator("section[aria-labelledby='group-person-heading'] > p")).toHaveText(
    "Nothing kept just for you yet. Remember a fact for Just you, or tell the agent in your DM.",
  );
  await olivia.goto(`${MEMORY}?q=zebracorn`);
  await expect(olivia.getByText("None here match the search or filters.")).toHaveCount(3);

  // Max reads a DM with Ana: it is named by its people, on the card and in the menus.
  const max = await signIn(browser, "max@acme.test");
  await max.goto(MEMORY);
  await expect(card(max, DEMO_FACTS.pairing).getByText("DM with Ana Alves", { exact: true })).toBeVisible();
  expect(await max.locator("main").innerText()).not.toMatch(SECOND_NAMES);
  // Your data names the scopes and the channels the same way: the DM by its people, never "#group-max-ana".
  await max.goto("/you/data");
  await expect(max.getByRole("main").getByText(/· DM with Ana Alves ·/).first()).toBeVisible();
  expect(await max.locator("main").innerText()).not.toMatch(/Just me|This workspace|Conversation|Workspace \(/);
  expect(await max.locator("main").innerText()).not.toMatch(SECOND_NAMES);
});

test("a new agent's Memory page is one empty state that says what to do, not three empty groups", async ({ browser }) => {
  const olivia = await signIn(browser, "olivia@acme.test");
  await olivia.goto("/w/acme/settings/agents");
  await olivia.getByLabel("Handle").fill("helper");
  await olivia.getByLabel("Name", { exact: true }).fill("Helper");
  await olivia.getByRole("button", { name: "Create agent" }).click();
  await expect(olivia).toHaveURL(/\/settings\/agents\/helper$/);
  await olivia.goto("/w/acme/agents/helper/memory");
  await expect(olivia.getByRole("heading", { name: "Helper knows nothing you can see yet" })).toBeVisible();
  await expect(olivia.getByText(/Tell it a fact with Remember a fact/)).toBeVisible();
  await expect(olivia.locator("[data-results-heading]")).toHaveCount(0);
  await expect(olivia.getByRole("search", { name: "Search and filter facts" })).toHaveCount(0);
});

test("a Just you fact with no DM of one's own is warned before it is kept", async ({ browser }) => {
  const olivia = await signIn(browser, "olivia@acme.test");
  await olivia.goto(MEMORY);
  const add = olivia.getByRole("form", { name: "Remember a fact" });
  await expect(add.getByRole("radio", { name: "Just you" })).toBeChecked();
  await expect(add.getByText("Scout will not recall this anywhere until you have a DM with Scout")).toBeVisible();
  await add.getByLabel("Fact", { exact: true }).fill("Olivia's parking spot is B12.");
  await add.getByRole("button", { name: "Remember for just you" }).click();
  await expect(add.getByText("Kept, but Scout will not recall this anywhere until you have a DM with Scout.")).toBeVisible();
  await expect(olivia.getByText("Scout will remember that.")).toHaveCount(0);
  // A channel reaches a place: no warning.
  await add.getByRole("radio", { name: "Channels" }).check();
  await expect(add.locator("[data-reaches-no-place]")).toHaveCount(0);
});

test("shortcuts: / searches, n remembers, ? lists them; none fire while typing", async ({ browser }) => {
  const ana = await signIn(browser, "ana@acme.test");
  await ana.goto(MEMORY);
  const search = ana.getByLabel("Search facts");
  const fact = ana.getByRole("form", { name: "Remember a fact" }).getByLabel("Fact", { exact: true });
  const blur = () => ana.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  await ana.getByRole("heading", { level: 1 }).click();
  await ana.keyboard.press("/");
  await expect(search).toBeFocused();
  await ana.keyboard.type("n?");
  await expect(search).toHaveValue("n?");
  await expect(search).toBeFocused();
  await blur();
  await ana.keyboard.press("n");
  await expect(fact).toBeFocused();
  await ana.keyboard.type("/n");
  await expect(fact).toHaveValue("/n");
  await blur();
  await ana.keyboard.press("?");
  const sheet = ana.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText("Search facts");
  await ana.keyboard.press("Escape");
  await expect(sheet).toBeHidden();

  // The skip links take the keyboard straight to search and to Remember.
  await ana.getByRole("link", { name: "Skip to search" }).focus();
  await ana.keyboard.press("Enter");
  await expect(search).toBeFocused();
  await ana.getByRole("link", { name: "Skip to Remember a fact" }).focus();
  await ana.keyboard.press("Enter");
  await expect(fact).toBeFocused();
});

/** The texts of a group's cards, in the order shown. */
const cardTexts = (page: Page, title: string) =>
  page
    .getByRole("list", { name: `${title} facts` })
    .locator(":scope > li")
    .evaluateAll((items) => items.map((li) => document.getElementById(li.getAttribute("aria-labelledby") ?? "")?.textContent ?? ""));

test("sort by most recalled: chosen by keyboard, kept in the URL, announced, and paged without a fact lost or shown twice", async ({ browser }) => {
  // Ana asks Scout about Portuguese three times in her DM: her preference (beyond the 40 newest) is recalled each time.
  for (let i = 0; i < 3; i++) {
    const asked = await call(PORT, "GET", "/api/v1/recall?channel=dm-ana&asker=ana&q=Portuguese&limit=2");
    expect("body" in asked ? asked.body : "").toContain(DEMO_FACTS.anaPerson);
  }
  const ana = await signIn(browser, "ana@acme.test");
  // The counts reach the database within the flush interval: wait for them, not for a time.
  await expect(async () => {
    await ana.goto(`${MEMORY}?sort=recalled&scope=person`);
    expect((await cardTexts(ana, "Just you"))[0]).toBe(DEMO_FACTS.anaPerson);
  }).toPass();

  await ana.goto(MEMORY);
  expect((await cardTexts(ana, "Just you"))[0]).toBe(ANAS[49]);
  const sort = ana.getByLabel("Sort", { exact: true });
  await expect(sort).toHaveValue("");
  await sort.focus();
  await sort.selectOption("recalled");
  await ana.keyboard.press("Tab");
  await expect(ana.getByRole("button", { name: "Apply" })).toBeFocused();
  await ana.keyboard.press("Enter");
  await expect(ana).toHaveURL(/[?&]sort=recalled(&|$)/);
  // Focus on the results, and the order said politely.
  await expect(ana.locator("[data-results-heading]").first()).toBeFocused();
  await expect(ana.getByRole("status").filter({ hasText: "Most recalled facts first." })).toHaveCount(1);
  await expect(ana.getByLabel("Sort", { exact: true })).toHaveValue("recalled");

  // Her 51 Just you facts, most recalled first, over three pages that keep the sort and the place.
  const justYou = ana.locator("#group-person-heading");
  const pages = ana.getByRole("navigation", { name: "Just you pages" });
  const seen = await cardTexts(ana, "Just you");
  expect(seen[0]).toBe(DEMO_FACTS.anaPerson);
  await expect(card(ana, DEMO_FACTS.anaPerson)).toContainText("Recalled 3 times");
  await expect(justYou.locator("[data-range]")).toHaveText("1–25 of 51");
  await pages.getByRole("link", { name: "Less recalled facts →" }).click();
  await expect(justYou.locator("[data-range]")).toHaveText("26–50 of 51");
  await expect(justYou).toBeFocused();
  await expect(ana).toHaveURL(/[?&]sort=recalled(&|$)/);
  seen.push(...(await cardTexts(ana, "Just you")));
  // By keyboard too: Enter on the link, focus on the heading with the new range.
  await pages.getByRole("link", { name: "Less recalled facts →" }).focus();
  await ana.keyboard.press("Enter");
  await expect(justYou.locator("[data-range]")).toHaveText("51–51 of 51");
  await expect(justYou).toBeFocused();
  seen.push(...(await cardTexts(ana, "Just you")));
  expect(seen).toHaveLength(51);
  expect(new Set(seen)).toEqual(new Set([DEMO_FACTS.anaPerson, ...ANAS]));
  await pages.getByRole("link", { name: "← Most recalled facts" }).click();
  await expect(justYou.locator("[data-range]")).toHaveText("1–25 of 51");

  // Clearing the filters keeps the order she chose: a sort is not a filter.
  await ana.getByLabel("Scope", { exact: true }).selectOption("person");
  await ana.getByRole("button", { name: "Apply" }).click();
  await expect(ana).toHaveURL(/[?&]scope=person(&|$)/);
  await ana.getByRole("link", { name: "Clear filters" }).click();
  await expect(ana).toHaveURL(/\?sort=recalled$/);
  await expect(ana.getByLabel("Sort", { exact: true })).toHaveValue("recalled");
  await expect(ana.getByLabel("Scope", { exact: true })).toHaveValue("");
});
