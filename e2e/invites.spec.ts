/**
 * Invitations in a real browser: a link joins its own workspace and nothing
 * else, an account that exists is never handed to whoever holds a link, and
 * adding a person tells the owner nothing about anyone. The demo people act as
 * owners and as an account that exists; every account made here is new, so the
 * demo's own memberships and sessions stay as other specs expect them.
 */
import { expect, test, type Page } from "@playwright/test";
import { PEOPLE, storageStateOf } from "./demo";
import { addPerson, joinAsNewcomer, NEWCOMER_PASSWORD, removePerson, signedOutPage, signIn, startWorkspace, unique } from "./people";

const UNUSABLE = "This link doesn't work";

/** An owner's "add person" answer with the address taken out: what must not depend on who the address is. */
const withoutAddress = (message: string, email: string) => message.replaceAll(email, "<email>");

const peopleList = (page: Page) => page.getByRole("list", { name: "People", exact: true });
const invitedList = (page: Page) => page.getByRole("list", { name: /^Invited \(\d+\)$/ });

async function auditRows(page: Page, workspace: string, action: string, summary: string) {
  await page.goto(`/w/${workspace}/settings/audit`);
  return page.getByRole("list", { name: "Audit events" }).getByRole("listitem").filter({ hasText: action }).filter({ hasText: summary });
}

/** The workspaces a signed-in person's home page lists. */
async function homeWorkspaces(page: Page): Promise<string[]> {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
  // Each workspace is a heading that links to it; "Start a workspace" is a heading too, but no link.
  return page.getByRole("main").getByRole("heading", { level: 2 }).filter({ has: page.getByRole("link") }).allTextContents();
}

test.describe("an invite link joins its own workspace only", () => {
  test("Gina's Globex link for Olivia's invitee makes no Acme owner", async ({ browser }) => {
    const hire = `hire-${unique()}@acme.test`;
    const olivia = await browser.newContext({ storageState: storageStateOf("olivia") });
    const gina = await browser.newContext({ storageState: storageStateOf("gina") });
    const oliviaPage = await olivia.newPage();
    const ginaPage = await gina.newPage();

    const acmeInvite = await addPerson(oliviaPage, "acme", hire, "owner");
    const globexInvite = await addPerson(ginaPage, "globex", hire);
    expect(globexInvite.link).not.toBe(acmeInvite.link);

    // Gina takes her own link and makes the account for that address.
    const taken = await joinAsNewcomer(browser, globexInvite.link, "Not The Hire");
    await expect(taken.page).toHaveURL(/\/w\/globex$/);
    expect(await homeWorkspaces(taken.page)).toEqual(["Globex"]);
    for (const path of ["/w/acme", "/w/acme/settings", "/w/acme/agents/scout/memory"]) {
      const response = await taken.page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(taken.page.getByText("Acme")).toHaveCount(0);
    }
    // Her used link offers nothing more, Acme least of all.
    await taken.page.goto(globexInvite.link);
    await expect(taken.page.getByRole("heading", { name: UNUSABLE })).toBeVisible();
    await expect(taken.page.getByText("Acme")).toHaveCount(0);

    // Acme still waits for its invitee: not a member, and Olivia's link sets no password now that the address has an account.
    await oliviaPage.goto("/w/acme/settings");
    await expect(invitedList(oliviaPage).getByRole("listitem", { name: hire })).toBeVisible();
    await expect(peopleList(oliviaPage)).not.toContainText(hire);
    const realHire = await signedOutPage(browser);
    await realHire.page.goto(acmeInvite.link);
    await expect(realHire.page.getByRole("heading", { name: "Join Acme" })).toBeVisible();
    await expect(realHire.page.getByRole("link", { name: `Sign in as ${hire}` })).toBeVisible();
    await expect(realHire.page.getByLabel("Password")).toHaveCount(0);
    await expect(realHire.page.getByRole("button", { name: "Create account and join" })).toHaveCount(0);

    for (const context of [olivia, gina, taken.context, realHire.context]) await context.close();
  });

  test("an account Gus made and removed does not join Acme when Olivia adds its email", async ({ browser }) => {
    const id = unique();
    const cfo = `cfo-${id}@acme.test`;
    const cfoName = `Cfo ${id}`;
    const stranger = `new-${id}@acme.test`;
    const gus = await browser.newContext({ storageState: storageStateOf("gus") });
    const gusPage = await gus.newPage();
    const lab = await startWorkspace(gusPage, `Lab ${id}`);
    const gusInvite = await addPerson(gusPage, lab, cfo);
    const made = await joinAsNewcomer(browser, gusInvite.link, cfoName);
    await made.context.close();
    await removePerson(gusPage, lab, cfoName);

    const olivia = await browser.newContext({ storageState: storageStateOf("olivia") });
    const oliviaPage = await olivia.newPage();
    const forCfo = await addPerson(oliviaPage, "acme", cfo, "owner");
    const forStranger = await addPerson(oliviaPage, "acme", stranger, "owner");
    // Whether the address has an account (and whose) changes nothing in the answer.
    expect(withoutAddress(forCfo.message, cfo)).toBe(withoutAddress(forStranger.message, stranger));
    expect(forCfo.message).not.toContain(cfoName);

    await oliviaPage.goto("/w/acme/settings");
    await expect(invitedList(oliviaPage).getByRole("listitem", { name: cfo })).toBeVisible();
    await expect(peopleList(oliviaPage)).not.toContainText(cfo);
    await expect(oliviaPage.getByText(cfoName)).toHaveCount(0);

    // Gus still knows that account's password: it opens nothing in Acme.
    const asCfo = await signIn(browser, cfo, NEWCOMER_PASSWORD);
    expect(await homeWorkspaces(asCfo.page)).toEqual([]);
    await expect(asCfo.page.getByText("You are not in a workspace yet.")).toBeVisible();
    expect((await asCfo.page.goto("/w/acme"))?.status()).toBe(404);

    for (const context of [gus, olivia, asCfo.context]) await context.close();
  });
});

test.describe("a person who already has an account", () => {
  test("is never added silently: the answer names nobody, and only Gina signed in can answer her invitation", async ({ browser }) => {
    const gina = PEOPLE.gina;
    const stranger = `new-${unique()}@acme.test`;
    const olivia = await browser.newContext({ storageState: storageStateOf("olivia") });
    const oliviaPage = await olivia.newPage();
    const forGina = await addPerson(oliviaPage, "acme", gina.email);
    const forStranger = await addPerson(oliviaPage, "acme", stranger);
    expect(withoutAddress(forGina.message, gina.email)).toBe(withoutAddress(forStranger.message, stranger));
    await oliviaPage.goto("/w/acme/settings");
    await expect(oliviaPage.getByText(gina.name)).toHaveCount(0);
    await expect(invitedList(oliviaPage).getByRole("listitem", { name: gina.email })).toBeVisible();
    await expect(peopleList(oliviaPage)).not.toContainText(gina.email);

    // Signed out: sign in to answer; no password to set.
    const nobody = await signedOutPage(browser);
    await nobody.page.goto(forGina.link);
    await expect(nobody.page.getByRole("link", { name: `Sign in as ${gina.email}` })).toBeVisible();
    await expect(nobody.page.getByLabel("Password")).toHaveCount(0);
    await nobody.context.close();

    // Max is told whose invitation it is and to sign out; it is nothing he can take. (Not pressed: it would end his shared session.)
    const max = await browser.newContext({ storageState: storageStateOf("max") });
    const maxPage = await max.newPage();
    await maxPage.goto(forGina.link);
    await expect(maxPage.getByText(`You are signed in as ${PEOPLE.max.email}. This invitation is for ${gina.email}: sign out, then open this link again.`)).toBeVisible();
    await expect(maxPage.getByRole("button", { name: "Sign out" })).toBeVisible();
    await expect(maxPage.getByRole("button", { name: "Join Acme" })).toHaveCount(0);
    await max.close();

    // Gina sees the choice, and declines: she stays out, and the invitation is gone.
    const ginaContext = await browser.newContext({ storageState: storageStateOf("gina") });
    const ginaPage = await ginaContext.newPage();
    expect(await homeWorkspaces(ginaPage)).toEqual(["Globex"]);
    await ginaPage.goto(forGina.link);
    await expect(ginaPage.getByText(`${gina.email} is invited to Acme as a member.`)).toBeVisible();
    await expect(ginaPage.getByRole("button", { name: "Join Acme" })).toBeVisible();
    await ginaPage.getByRole("button", { name: "Decline" }).click();
    await expect(ginaPage.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
    expect(await homeWorkspaces(ginaPage)).toEqual(["Globex"]);
    await ginaPage.goto(forGina.link);
    await expect(ginaPage.getByRole("heading", { name: UNUSABLE })).toBeVisible();
    await ginaContext.close();

    await oliviaPage.goto("/w/acme/settings");
    await expect(oliviaPage.getByRole("listitem", { name: gina.email })).toHaveCount(0);
    await expect(await auditRows(oliviaPage, "acme", "Invited a person", `${gina.email} as member`)).not.toHaveCount(0);
    await expect(await auditRows(oliviaPage, "acme", "Declined the invite", `${gina.name} <${gina.email}>`)).not.toHaveCount(0);
    await olivia.close();
  });

  test("joins with the invited role only when they press Join, signed in as themselves", async ({ browser }) => {
    // An account with a workspace of its own, made for this test: joining Acme for real would change what the demo's Gina sees in other specs.
    const id = unique();
    const email = `ivy-${id}@initech.test`;
    const name = `Ivy ${id}`;
    const gus = await browser.newContext({ storageState: storageStateOf("gus") });
    const gusPage = await gus.newPage();
    const initech = await startWorkspace(gusPage, `Initech ${id}`);
    const ivy = await joinAsNewcomer(browser, (await addPerson(gusPage, initech, email)).link, name);
    await gus.close();

    const olivia = await browser.newContext({ storageState: storageStateOf("olivia") });
    const oliviaPage = await olivia.newPage();
    const invited = await addPerson(oliviaPage, "acme", email, "owner");
    expect(invited.message).not.toContain(name);
    expect(await homeWorkspaces(ivy.page)).toEqual([`Initech ${id}`]);
    expect((await ivy.page.goto("/w/acme"))?.status()).toBe(404);

    await ivy.page.goto(invited.link);
    await expect(ivy.page.getByText(`${email} is invited to Acme as an owner.`)).toBeVisible();
    await ivy.page.getByRole("button", { name: "Join Acme" }).click();
    await expect(ivy.page).toHaveURL(/\/w\/acme$/);
    await expect(ivy.page.getByText("You are an owner of this workspace.")).toBeVisible();
    await ivy.page.goto("/");
    await expect(ivy.page.getByRole("region", { name: "Acme", exact: true })).toContainText("Owner");

    await oliviaPage.goto("/w/acme/settings");
    await expect(peopleList(oliviaPage).getByRole("listitem", { name, exact: true })).toContainText("owner");
    await expect(oliviaPage.getByRole("listitem", { name: email, exact: true })).toHaveCount(0);
    await expect(await auditRows(oliviaPage, "acme", "Accepted the invite", `${name} <${email}> as owner`)).toHaveCount(1);

    // Acme goes back to the seed's people.
    await removePerson(oliviaPage, "acme", name);
    for (const context of [olivia, ivy.context]) await context.close();
  });
});

test.describe("olivia, managing a waiting invitation", () => {
  test.use({ storageState: storageStateOf("olivia") });

  test("a new link retires the old one, and cancelling retires the new one", async ({ page, browser }) => {
    const email = `renew-${unique()}@acme.test`;
    const first = await addPerson(page, "acme", email);
    const row = invitedList(page).getByRole("listitem", { name: email });
    await row.getByRole("button", { name: "New invite link" }).click();
    const renewed = row.getByLabel(`Invite link for ${email}`);
    await expect(renewed).toHaveValue(/\/invite\/[\w-]{43}$/);
    const second = await renewed.inputValue();
    expect(second).not.toBe(first.link);

    const holder = await signedOutPage(browser);
    await holder.page.goto(first.link);
    await expect(holder.page.getByRole("heading", { name: UNUSABLE })).toBeVisible();
    await expect(holder.page.getByLabel("Password")).toHaveCount(0);
    await holder.page.goto(second);
    await expect(holder.page.getByRole("heading", { name: "Join Acme" })).toBeVisible();
    await expect(holder.page.getByRole("button", { name: "Create account and join" })).toBeVisible();

    await row.getByRole("button", { name: "Cancel invitation" }).click();
    await page.getByRole("dialog", { name: `Cancel the invitation for ${email}?` }).getByRole("button", { name: "Cancel invitation" }).click();
    await expect(page.getByRole("listitem", { name: email })).toHaveCount(0);
    await holder.page.goto(second);
    await expect(holder.page.getByRole("heading", { name: UNUSABLE })).toBeVisible();
    await expect(holder.page.getByLabel("Password")).toHaveCount(0);
    await holder.context.close();

    await expect(await auditRows(page, "acme", "Invited a person", `${email} as member`)).toHaveCount(1);
    await expect(await auditRows(page, "acme", "Made a new invite link", email)).toHaveCount(1);
    await expect(await auditRows(page, "acme", "Cancelled an invite", email)).toHaveCount(1);
  });
});
