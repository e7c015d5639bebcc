/**
 * The rest of #17's "what good looks like" that no other spec walked: the Undo
 * toast waits while hovered or focused (time moved with Playwright's clock, not
 * waited for), "Forget permanently" keeps its confirmation and focus returns to
 * it on Cancel, the theme choice is remembered across a reload, a phone at 390 px
 * keeps Search and Remember in reach however far down, and the character count is
 * announced only near the limit. Ana's own facts, with unique text, on the shared server.
 */
import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./demo";
import { unique } from "./people";

const MEMORY = "/w/acme/agents/scout/memory";

test.use({ storageState: storageStateOf("ana") });

const card = (page: Page, text: string) => page.locator("li[data-fact-id]").filter({ hasText: text });

async function remember(page: Page, text: string): Promise<void> {
  const add = page.getByRole("form", { name: "Remember a fact" });
  await add.getByLabel("Fact", { exact: true }).fill(text);
  await add.getByRole("button", { name: "Remember for just you" }).click();
  await expect(card(page, text)).toBeFocused();
}

test("the Undo toast waits while hovered or focused, and goes once left alone", async ({ page }) => {
  await page.clock.install();
  await page.goto(MEMORY);
  const text = `Toast patience check ${unique()}`;
  await remember(page, text);
  await card(page, text).getByRole("button", { name: "Forget" }).click();
  const toast = page.getByRole("status", { name: "Notifications" }).locator("div").filter({ hasText: `Forgot “${text}”` });
  await expect(toast).toBeVisible();

  // Hovered, a minute passes (the toast alone lasts 15 s): it is still there.
  await toast.hover();
  await page.clock.fastForward(60_000);
  await expect(toast).toBeVisible();
  // Focused (Undo reached by keyboard), the pointer gone: still there.
  await toast.getByRole("button", { name: /^Undo/ }).focus();
  await page.mouse.move(0, 0);
  await page.clock.fastForward(60_000);
  await expect(toast).toBeVisible();
  // Left alone, it goes.
  await page.locator("h1").click();
  await page.clock.fastForward(20_000);
  await expect(toast).toHaveCount(0);
});

test("Forget permanently asks first; Cancel keeps the fact and returns focus, confirming deletes it", async ({ page }) => {
  await page.goto(MEMORY);
  const text = `Purge confirmation check ${unique()}`;
  await remember(page, text);
  await card(page, text).getByRole("button", { name: "Forget" }).click();
  const item = page.getByRole("list", { name: "Recently forgotten facts" }).getByRole("listitem").filter({ hasText: text });
  const purge = item.getByRole("button", { name: "Forget permanently" });
  await purge.click();
  const dialog = page.getByRole("dialog", { name: "Forget this fact for good?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(text);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(purge).toBeFocused();
  await expect(item).toHaveCount(1);

  await purge.click();
  await dialog.getByRole("button", { name: "Forget permanently" }).click();
  await expect(item).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(text)).toHaveCount(0);
});

test("the theme follows the system until chosen, and a choice is remembered", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(MEMORY);
  const html = page.locator("html");
  await expect(html).toHaveAttribute("data-theme", "dark");
  const theme = page.getByLabel("Theme");
  await theme.selectOption("light");
  await expect(html).toHaveAttribute("data-theme", "light");
  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "light");
  await expect(page.getByLabel("Theme")).toHaveValue("light");
  await page.getByLabel("Theme").selectOption("system");
  await expect(html).toHaveAttribute("data-theme", "dark");
});

test("on a phone, Search and Remember lead the page and stay in reach at the bottom", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(MEMORY);
  const bar = { search: page.getByRole("button", { name: "Search", exact: true }), add: page.getByRole("button", { name: "Remember a fact", exact: true }) };
  await expect(bar.search).toBeInViewport();
  await expect(bar.add).toBeInViewport();
  // Above the first fact.
  const [barTop, firstCard] = await Promise.all([
    bar.search.evaluate((el) => el.getBoundingClientRect().top),
    page.locator("li[data-fact-id]").first().evaluate((el) => el.getBoundingClientRect().top),
  ]);
  expect(barTop).toBeLessThan(firstCard);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(bar.add).toBeInViewport();
  await bar.add.click();
  await expect(page.getByRole("form", { name: "Remember a fact" }).getByLabel("Fact", { exact: true })).toBeFocused();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await bar.search.click();
  await expect(page.getByLabel("Search facts")).toBeFocused();
});

test("the character count is announced only near the limit", async ({ page }) => {
  await page.goto(MEMORY);
  const add = page.getByRole("form", { name: "Remember a fact" });
  const field = add.getByLabel("Fact", { exact: true });
  await field.fill("x".repeat(400));
  await expect(add.getByText("400 / 500 characters")).toBeVisible();
  await expect(add.getByRole("status").filter({ hasText: /left/ })).toHaveCount(0);
  await field.fill("x".repeat(495));
  await expect(add.getByRole("status").filter({ hasText: /left/ })).toHaveText("5 characters left");
});
