/**
 * First run without the demo, in a real browser: a server of our own (the
 * shared e2e server runs with the demo) on a fresh, migrated, empty database
 * with MNEMO_DEMO=0. It serves the build the shared server just made.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_PORT } from "./demo";

const PORT = E2E_PORT + 40;
const BASE = `http://localhost:${PORT}`;
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

let server: ChildProcess;
let output = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const env = {
    ...process.env,
    DATABASE_URL: `file:${path.join(mkdtempSync(path.join(tmpdir(), "mnemo-first-run-")), "mnemo.db")}`,
    MNEMO_DEMO: "0",
    MNEMO_SIGNUP: "closed",
    AUTH_SECRET: randomBytes(33).toString("base64url"),
    AUTH_TRUST_HOST: "true",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  // `next start` directly, not `npm start`: that would rebuild .next under the shared server if a source changed.
  const migrated = spawnSync(process.execPath, ["--import", "tsx", "db/migrate.ts"], { env, encoding: "utf8" });
  expect(migrated.status, migrated.stderr).toBe(0);
  server = spawn(process.execPath, [nextBin, "start", "--port", String(PORT)], { env, stdio: ["ignore", "pipe", "pipe"] });
  server.stdout?.on("data", (chunk) => (output += chunk));
  server.stderr?.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ready = await fetch(`${BASE}/api/health`).catch(() => null);
    if (ready?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the first-run server never started:\n${output}`);
});

test.afterAll(() => {
  server?.kill("SIGTERM");
});

test("the first account creates its workspace and signs in; then sign-up is closed", async ({ page }) => {
  await page.goto(`${BASE}/signin`);
  await expect(page.getByText("This Mnemo has no accounts yet.")).toBeVisible();
  await page.getByRole("link", { name: "Create the first account" }).click();
  await expect(page.getByRole("heading", { name: "Create the first account" })).toBeVisible();

  await page.getByLabel("Your name").fill("Peter Gibbons");
  await page.getByLabel("Email").fill("peter@initech.test");
  // Too short: the message sits under the password, which keeps focus; nothing typed is lost (#17).
  const password = page.getByLabel("Password");
  await password.fill("tps");
  await page.getByLabel("Workspace name").fill("Initech");
  await page.getByRole("button", { name: "Create account and workspace" }).click();
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(password).toHaveAccessibleDescription(/Use at least 8 characters\./);
  await expect(password).toBeFocused();
  await expect(password).toHaveValue("tps");
  await expect(page.getByLabel("Your name")).toHaveValue("Peter Gibbons");
  await expect(page.getByLabel("Email")).toHaveValue("peter@initech.test");
  await expect(page.getByLabel("Workspace name")).toHaveValue("Initech");
  await expect(page.getByLabel("Workspace name")).not.toHaveAttribute("aria-invalid", "true");
  await password.fill("tps-reports-2");
  await page.getByRole("button", { name: "Create account and workspace" }).click();

  // The name, then random characters: the id says nothing about other workspaces.
  await expect(page).toHaveURL(new RegExp(`^${BASE}/w/initech-[0-9a-z]{6}$`));
  await expect(page.getByRole("heading", { name: "Initech" })).toBeVisible();
  await expect(page.getByText("You are an owner of this workspace.")).toBeVisible();

  // Signed out, the sign-in page no longer offers an account, and the form's page says it is closed.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Create the first account" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Create an account" })).toHaveCount(0);
  await page.goto(`${BASE}/signin/create-account`);
  await expect(page.getByText("Sign-up is closed here.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Create account/ })).toHaveCount(0);

  // The new account signs in like any other.
  await page.goto(`${BASE}/signin`);
  await page.getByLabel("Email").fill("peter@initech.test");
  await page.getByLabel("Password").fill("tps-reports-2");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Initech" })).toBeVisible();
});
