/**
 * Keyboard-only walks of the main tasks (#17): every step is a key press, and each
 * asserts where focus lands — on the work, never dropped to <body> on a long page.
 * Far-away controls are reached with focus() (what a skip link or Tab does) and
 * then used with the keyboard alone. Also: settings forms keep what was typed when
 * the server refuses it, with the message on its field. The spec makes its own
 * facts, channel and key (unique names), so the demo the other specs read stays.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { storageStateOf } from "./demo";
import { unique } from "./people";

const MEMORY = "/w/acme/agents/scout/memory";

/** Presses Tab until `target` has focus: proof that the keyboard reaches it from where focus is. */
async function tabTo(page: Page, target: Locator, most = 15): Promise<void> {
  for (let i = 0; i < most; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

/** The element with focus, as a locator (never <body> when focus follows the work). */
const focused = (page: Page) => page.locator(":focus");

const card = (page: Page, text: string) => page.locator("li[data-fact-id]").filter({ hasText: text });

/** Types a fact, Tabs to Remember and presses Enter; focus must land on the new card. */
async function addByKeyboard(page: Page, text: string): Promise<void> {
  await page.getByLabel("Fact", { exact: true }).focus();
  await page.keyboard.type(text);
  await tabTo(page, page.locator('form[aria-labelledby="add-fact-heading"] button[type="submit"]'));
  await page.keyboard.press("Enter");
  // Remember → focus on the new fact's card.
  await expect(card(page, text)).toBeFocused();
}

test.describe("ana, keyboard only, on the Memory page", () => {
  test.use({ storageState: storageStateOf("ana") });

  test("add, pin, edit, Esc, forget + undo, restore, search and preview: focus follows each step", async ({ page }) => {
    const stamp = unique();
    // Unlike each other, so no look-alike note adds buttons to the cards.
    const first = `Standups move to Thursdays ${stamp}`;
    const second = `Invoices ship from the Lisbon office ${stamp}`;
    await page.goto(MEMORY);
    await addByKeyboard(page, first);
    await addByKeyboard(page, second);

    // Pin/Unpin keeps focus on the button, also once the refreshed card replaces it.
    const newest = card(page, second);
    await page.keyboard.press("Tab");
    await expect(newest.getByRole("button", { name: "Unpin" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(newest.getByRole("button", { name: "Pin", exact: true })).toBeFocused();
    await expect(newest.getByRole("img", { name: "Pinned" })).toHaveCount(0);

    // Edit, Save: back on the card's Edit button; Esc from an edit too.
    await page.keyboard.press("Tab");
    await expect(newest.getByRole("button", { name: "Edit" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("Fact text")).toBeFocused();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" (edited)");
    await tabTo(page, page.getByRole("form", { name: "Edit fact" }).getByRole("button", { name: "Save" }));
    await page.keyboard.press("Enter");
    const edited = card(page, `${second} (edited)`);
    await expect(edited.getByRole("button", { name: "Edit" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("Fact text")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(edited.getByRole("button", { name: "Edit" })).toBeFocused();

    // Forget: one step, no dialog; focus on the next card; Ctrl+Z undoes and focuses the restored card.
    await page.keyboard.press("Tab");
    await expect(edited.getByRole("button", { name: "Forget" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(edited).toHaveCount(0);
    await expect(focused(page)).toHaveAttribute("data-fact-id", /.+/);
    const toasts = page.getByRole("status", { name: "Notifications" });
    await expect(toasts).toContainText(`Forgot “${second} (edited)”`);
    await page.keyboard.press("Control+z");
    await expect(edited).toBeFocused();

    // Forget again, then Restore from Recently forgotten: focus on the restored card.
    await edited.getByRole("button", { name: "Forget" }).focus();
    await page.keyboard.press("Enter");
    await expect(toasts).toContainText("Forgot");
    const restore = page
      .getByRole("list", { name: "Recently forgotten facts" })
      .getByRole("listitem")
      .filter({ hasText: second })
      .getByRole("button", { name: "Restore" });
    await restore.focus();
    await page.keyboard.press("Enter");
    await expect(edited).toBeFocused();

    // Search: Enter in the box, and focus is on the results' heading, with the match under it.
    await page.getByLabel("Search facts").focus();
    await page.keyboard.type(stamp);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`q=${stamp}`));
    await expect(page.locator("[data-results-heading]").first()).toBeFocused();
    await expect(card(page, first)).toBeVisible();

    // Preview: Enter on the button, focus on the preview's heading with the answer below it.
    await page.getByLabel("What is the agent asked?").focus();
    await page.keyboard.type("keyboard");
    await tabTo(page, page.getByRole("button", { name: "Preview recall" }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Preview recall" })).toBeFocused();
    await expect(page.getByLabel("Recall preview")).toBeVisible();
  });
});

test.describe("olivia, keyboard only, in settings", () => {
  test.use({ storageState: storageStateOf("olivia") });

  test("a refused person, channel or agent keeps what was typed, with the message on its field", async ({ page }) => {
    // Already in Acme: email and name stay, the email is marked and focused.
    await page.goto("/w/acme/settings");
    const email = page.getByLabel("Email", { exact: true });
    await email.focus();
    await page.keyboard.type("max@acme.test");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Max Again");
    await page.keyboard.press("Enter");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription("max@acme.test is already in Acme.");
    await expect(email).toBeFocused();
    await expect(email).toHaveValue("max@acme.test");
    await expect(page.getByLabel("Name (optional)")).toHaveValue("Max Again");

    // A taken channel name keeps its kind; then a free name creates it and focus is on its card.
    await page.goto("/w/acme/settings/channels");
    const name = page.getByLabel("Channel name", { exact: true });
    const kind = page.getByLabel("Kind", { exact: true });
    await kind.selectOption("public");
    await name.focus();
    await page.keyboard.type("general");
    await page.keyboard.press("Enter");
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toHaveAccessibleDescription(/already a channel named #general/);
    await expect(name).toBeFocused();
    await expect(kind).toHaveValue("public");
    const channel = `kb-${unique()}`;
    await page.keyboard.press("Control+a");
    await page.keyboard.type(channel);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: `#${channel}` })).toBeFocused();
    await expect(name).toHaveValue("");

    // Add Max to it, then remove him: focus on the channel's people heading after each.
    // The innermost section: the channel's own card.
    const section = page.locator("section").filter({ has: page.getByRole("heading", { name: `#${channel}` }) }).last();
    await section.getByLabel(`Add a person to #${channel}`).selectOption({ label: "Max Mills" });
    await section.getByRole("button", { name: "Add", exact: true }).press("Enter");
    const people = section.getByRole("heading", { name: /^People \(/ });
    await expect(people).toHaveText("People (1)");
    await expect(people).toBeFocused();
    await section.getByRole("button", { name: `Remove Max Mills from #${channel}` }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").getByRole("button", { name: "Remove" }).press("Enter");
    await expect(people).toHaveText("People (0)");
    await expect(people).toBeFocused();

    // Save role (unchanged): focus on the person's row.
    await page.goto("/w/acme/settings");
    const max = page.getByRole("listitem", { name: "Max Mills" });
    await max.getByRole("button", { name: "Save role" }).focus();
    await page.keyboard.press("Enter");
    await expect(max).toBeFocused();

    // A bad handle keeps both fields and marks the handle.
    await page.goto("/w/acme/settings/agents");
    const handle = page.getByLabel("Handle", { exact: true });
    await handle.focus();
    await page.keyboard.type("Not A Handle!");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Helper");
    await page.keyboard.press("Enter");
    await expect(handle).toHaveAttribute("aria-invalid", "true");
    await expect(handle).toBeFocused();
    await expect(handle).toHaveValue("Not A Handle!");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Helper");
  });

  test("create a key and revoke it: the new key, then its row, take focus", async ({ page }) => {
    await page.goto("/w/acme/settings/agents/scout");
    const keyName = `Keyboard ${unique()}`;
    await page.getByLabel("Key name").focus();
    await page.keyboard.type(keyName);
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("New key")).toBeFocused();
    const row = page.getByRole("listitem", { name: keyName });
    await row.getByRole("button", { name: "Revoke" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).press("Enter");
    await expect(row).toContainText("Revoked");
    await expect(row).toBeFocused();
  });
});
