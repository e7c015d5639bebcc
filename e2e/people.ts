/**
 * People the e2e specs make for themselves through the real pages: invited by an
 * owner, joined through the link, signed in on a browser of their own. Specs that
 * sign out, reset passwords or remove people act on these, never on the demo
 * people, whose stored sessions every other spec shares.
 */
import { expect, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";

/** A password for the people the specs make; the demo people keep theirs. */
export const NEWCOMER_PASSWORD = "a long e2e password";

/** A suffix no other test (nor an earlier run on the same database) has used. */
export function unique(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** A browser with no session at all. */
export async function signedOutPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  return { context, page: await context.newPage() };
}

export async function signIn(browser: Browser, email: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
  const signedIn = await signedOutPage(browser);
  const { page } = signedIn;
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
  return signedIn;
}

export type Invited = { link: string; message: string };

/** An owner adds an email on the People page; the answer is the link and the text shown with it. */
export async function addPerson(page: Page, workspace: string, email: string, role: "member" | "owner" = "member"): Promise<Invited> {
  await page.goto(`/w/${workspace}/settings`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Add person" }).click();
  const reveal = page.getByLabel("Invite link", { exact: true });
  await expect(reveal).toHaveValue(/^http:\/\/localhost:\d+\/invite\/[\w-]{43}$/);
  return { link: await reveal.inputValue(), message: await descriptionOf(reveal) };
}

/** The text a screen reader reads with a control: its aria-describedby. */
export async function descriptionOf(control: Locator): Promise<string> {
  return control.evaluate((element) => {
    const ids = (element.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
    return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
  });
}

/** Someone new opens their link signed out and makes their account; they land on the workspace. */
export async function joinAsNewcomer(browser: Browser, link: string, name: string): Promise<{ context: BrowserContext; page: Page }> {
  const joined = await signedOutPage(browser);
  const { page } = joined;
  await page.goto(link);
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Password", { exact: true }).fill(NEWCOMER_PASSWORD);
  await page.getByLabel("Confirm password").fill(NEWCOMER_PASSWORD);
  await page.getByRole("button", { name: "Create account and join" }).click();
  await expect(page).toHaveURL(/\/w\/[^/?]+$/);
  await expect(page.getByLabel("Signed in as")).toHaveText(name);
  return joined;
}

/** A signed-in person starts a workspace from the home page; its id, from where they land. */
export async function startWorkspace(page: Page, name: string): Promise<string> {
  await page.goto("/");
  await page.getByLabel("Workspace name").fill(name);
  await page.getByRole("button", { name: "Start workspace" }).click();
  await expect(page).toHaveURL(/\/w\/[^/]+\/settings$/);
  return new URL(page.url()).pathname.split("/")[2];
}

/** An owner removes a person (by the name shown) from the People page, confirming. */
export async function removePerson(page: Page, workspace: string, name: string): Promise<void> {
  await page.goto(`/w/${workspace}/settings`);
  await page.getByRole("list", { name: "People", exact: true }).getByRole("listitem", { name, exact: true }).getByRole("button", { name: "Remove" }).click();
  await page.getByRole("dialog", { name: `Remove ${name}?` }).getByRole("button", { name: "Remove", exact: true }).click();
  await expect(page.getByRole("list", { name: "People", exact: true }).getByRole("listitem", { name, exact: true })).toHaveCount(0);
}
