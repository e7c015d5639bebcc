/**
 * Account deletion and webhook deliveries still waiting (issue #16 × #18): where a
 * deleted person's name stood it reads "a former member" — in a waiting delivery's
 * payload too, which an endpoint that is down or turned off may send days later.
 */
import { expect, it } from "vitest";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { tellFact } from "@/lib/memory/tell";
import { deleteAccount } from "./delete-account";
import { FORMER_MEMBER } from "./types";

const t = tempDbForTests({ demo: true, each: true });

it("renames the deleted person in the payloads of deliveries still waiting", async () => {
  await t.db.$client.execute(
    `INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret, enabled, created_by)
      VALUES ('whe_test', 'acme', 'https://example.com/hooks', ' fact.remembered ', 'whsec_test', 1, 'max')`,
  );
  const olivia = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };
  const told = await tellFact(t.db, olivia, { id: "scout", workspaceId: "acme" }, { text: "The office closes at six.", scope: "workspace" });
  expect(told.status).toBe("created");
  // Turned off (by an owner, or after failures): its delivery waits until it is turned on again.
  await t.db.$client.execute("UPDATE webhook_endpoints SET enabled = 0 WHERE id = 'whe_test'");
  // Someone else owns Acme too, so Olivia may go.
  await t.db.$client.execute("UPDATE memberships SET role = 'owner' WHERE workspace_id = 'acme' AND user_id = 'max'");

  expect((await deleteAccount(t.db, "olivia", { dryRun: false })).status).toBe("deleted");

  const { rows } = await t.db.$client.execute("SELECT payload FROM webhook_deliveries WHERE status = 'pending'");
  expect(rows.length).toBe(1);
  const payload = JSON.parse(String(rows[0].payload));
  // The fact she told the workspace stays, and so does its text; her name does not.
  expect(payload.data.text).toBe("The office closes at six.");
  expect(payload.data.actor).toEqual({ kind: "user", id: "olivia", name: FORMER_MEMBER });
  expect(JSON.stringify(rows)).not.toContain("Olivia");
});
