/**
 * A fact purged while a proposal waits to replace it (issue #15 × #16/#18): the
 * proposal's `replace` event copied its text (recordReplaceIntent), so "Forget
 * permanently" must take that copy too — or approving the proposal later shows the
 * purged text in History as "was …" — and the webhook receivers, who were sent a
 * workspace fact's text, must still be told it was purged.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { facts } from "@/db/schema";
import { DEMO_FACTS } from "@/db/seed";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { derivePlace } from "./place";
import { utcDay } from "./rules";
import { factHistory } from "./store";
import { approveProposal } from "./proposals";
import { forgetFact, purgeFact, remember, type PersonActor } from "./writes";

const MAX_P: PersonActor = { workspaceId: "acme", id: "max", name: "Max Mills", handle: "max" };
const OLIVIA_P: PersonActor = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };
const NEW_REFUNDS = "Refunds over $300 need a manager's approval.";

const t = tempDbForTests({ demo: true, each: true });

async function idOf(body: string): Promise<string> {
  const [row] = await t.db.select({ id: facts.id }).from(facts).where(eq(facts.body, body));
  if (!row) throw new Error(`no fact "${body}"`);
  return row.id;
}

/** Scout, in `channel`, writing `body` as a proposal that replaces `replaces`. */
async function proposeReplacing(channel: string, scope: "channel" | "workspace", body: string, replaces: string) {
  const { place } = await derivePlace(t.db, "acme", channel, "ana");
  const result = await remember(t.db, {
    agentId: "scout",
    workspaceId: "acme",
    body,
    scope,
    scopeRef: scope === "workspace" ? "" : channel,
    scopeLabel: scope === "workspace" ? null : `#${channel}`,
    source: { kind: "message", ref: null, label: `@ana in #${channel}`, channelId: channel },
    by: { kind: "agent", id: "scout", name: "Scout" },
    pinned: false,
    proposal: "setting",
    replaces: { id: replaces, place, today: utcDay() },
  });
  if (result.status !== "created" || !result.replaced) throw new Error(`not proposed as a replacement: ${result.status}`);
  return result.fact.id;
}

describe("a fact purged while a replacement waits for it", () => {
  it("leaves its text in no history, before or after the proposal is approved", async () => {
    const oldId = await idOf(DEMO_FACTS.refunds);
    const proposalId = await proposeReplacing("support", "channel", NEW_REFUNDS, oldId);
    expect(await forgetFact(t.db, MAX_P, "scout", oldId)).toEqual({ status: "forgotten" });
    expect(await purgeFact(t.db, MAX_P, "scout", oldId)).toEqual({ status: "purged" });

    const { rows } = await t.db.$client.execute("SELECT before, after FROM fact_events");
    expect(JSON.stringify(rows)).not.toContain(DEMO_FACTS.refunds);

    expect(await approveProposal(t.db, MAX_P, "scout", proposalId)).toMatchObject({ status: "approved" });
    const history = await factHistory(t.db, { workspaceId: "acme", id: "ana" }, "scout", proposalId);
    expect(history.map((event) => event.kind)).toEqual(["propose", "approve"]);
    expect(JSON.stringify(history)).not.toContain(DEMO_FACTS.refunds);
  });

  it("is still announced to webhooks as purged", async () => {
    await t.db.$client.execute(
      `INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret, created_by)
        VALUES ('whe_test', 'acme', 'https://example.com/hooks', ' fact.purged ', 'whsec_test', 'olivia')`,
    );
    const oldId = await idOf(DEMO_FACTS.sso);
    await proposeReplacing("general", "workspace", "Only the Enterprise plan includes SSO.", oldId);
    expect(await forgetFact(t.db, OLIVIA_P, "scout", oldId)).toEqual({ status: "forgotten" });
    expect(await purgeFact(t.db, OLIVIA_P, "scout", oldId)).toEqual({ status: "purged" });

    const { rows } = await t.db.$client.execute("SELECT fact_id, event FROM webhook_deliveries");
    expect(rows.map((row) => ({ ...row }))).toEqual([{ fact_id: oldId, event: "fact.purged" }]);
  });
});
