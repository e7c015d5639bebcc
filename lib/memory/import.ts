/**
 * "Import workspace facts": an owner gives an agent the workspace facts of a
 * facts file. The file is imported whole or not at all: any fact the rules
 * refuse (a credential, blank or too long) or an import that would take the
 * agent past MAX_FACTS stops it, naming the reason. Facts of other scopes are
 * skipped — they belong to conversations and people this workspace may not have.
 * Duplicates (by the same dedupeKey remember() uses, in the file and in memory)
 * are skipped, never refreshed. Imported facts are the owner's, pinned, like
 * every fact a person tells (tell.ts). A fact's `valid_until` comes with it, even a
 * day already past: it then arrives expired, for the owner to renew or forget.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { facts } from "@/db/schema";
import { recordAudit } from "@/lib/admin/audit";
import { factsFileShape, importedFact } from "@/lib/validation/facts-file";
import { cleanFact, dedupeKey } from "./fact-text";
import { MAX_FACTS } from "./rules";
import { looksLikeInstruction } from "./instruction-text";
import { looksLikeSecret } from "./secrets";
import { liveFactCount } from "./store";
import { remember, type PersonActor } from "./writes";

export type ImportProblem = { item: number; reason: string };

export type ImportPlan = {
  /** Cleaned texts to add, in file order. */
  add: string[];
  /** The `valid_until` of each text in `add`, at the same place (null: no end). */
  validUntil: (string | null)[];
  duplicates: number;
  /** Channel and person facts: not imported. */
  otherScopes: number;
  refused: ImportProblem[];
  /** Items that would be added but read like instructions to the agent (instruction-text.ts): the check says so before the import. */
  instructionLike: ImportProblem[];
  /** Live facts the agent keeps now. */
  kept: number;
  /** How far past MAX_FACTS the import would take the agent (0 when it fits). */
  overLimitBy: number;
};

/** The facts of a file's text, or one sentence saying why the file can't be read. */
export function readFactsFile(text: string): { items: unknown[] } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: "The file is not JSON. Use a file made by “Download as JSON” on a Memory page." };
  }
  const parsed = factsFileShape.safeParse(json);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "The file is not a Mnemo facts file." };
  return { items: parsed.data.facts };
}

async function workspaceKeys(db: Conn, agentId: string): Promise<Set<string>> {
  const rows = await db
    .select({ key: facts.bodyKey })
    .from(facts)
    .where(and(eq(facts.agentId, agentId), eq(facts.scope, "workspace"), isNull(facts.forgottenAt)));
  return new Set(rows.map((row) => row.key));
}

/** Sorts every item of the file into add, duplicate, other scope or refused; writes nothing. */
export async function planImport(db: Conn, agentId: string, items: unknown[]): Promise<ImportPlan> {
  const seen = await workspaceKeys(db, agentId);
  const plan: ImportPlan = {
    add: [],
    validUntil: [],
    duplicates: 0,
    otherScopes: 0,
    refused: [],
    instructionLike: [],
    kept: 0,
    overLimitBy: 0,
  };
  items.forEach((raw, index) => {
    const item = index + 1;
    const parsed = importedFact.safeParse(raw);
    if (!parsed.success) {
      plan.refused.push({ item, reason: parsed.error.issues[0]?.message ?? "it is not a fact" });
      return;
    }
    if (parsed.data.scope !== "workspace") {
      plan.otherScopes += 1;
      return;
    }
    const body = cleanFact(parsed.data.body);
    if (!body) {
      plan.refused.push({ item, reason: "its body is empty" });
      return;
    }
    const secret = looksLikeSecret(body);
    if (secret) {
      plan.refused.push({ item, reason: `it looks like ${secret}; Mnemo never keeps credentials` });
      return;
    }
    const key = dedupeKey(body);
    if (seen.has(key)) {
      plan.duplicates += 1;
      return;
    }
    seen.add(key);
    const instruction = looksLikeInstruction(body);
    // The rule's name, not the matched words: the import's answers carry no fact text.
    if (instruction.flagged) plan.instructionLike.push({ item, reason: instruction.kind });
    plan.add.push(body);
    plan.validUntil.push(parsed.data.valid_until ?? null);
  });
  plan.kept = await liveFactCount(db, agentId);
  plan.overLimitBy = Math.max(0, plan.kept + plan.add.length - MAX_FACTS);
  return plan;
}

export type ImportResult =
  | { status: "imported"; plan: ImportPlan }
  | { status: "refused"; plan: ImportPlan }
  | { status: "memory_full"; plan: ImportPlan }
  | { status: "not_allowed" };

/**
 * Imports the file's workspace facts in one transaction: the owner check, the
 * plan (counted again, as facts may have changed since the dry run) and every
 * write. Anything unexpected rolls it all back.
 */
export async function importWorkspaceFacts(
  db: Conn,
  owner: PersonActor,
  agent: { id: string; handle: string; workspaceId: string },
  items: unknown[],
): Promise<ImportResult> {
  return db.transaction(async (tx): Promise<ImportResult> => {
    if (agent.workspaceId !== owner.workspaceId || !(await isOwner(tx, owner))) return { status: "not_allowed" };
    const plan = await planImport(tx, agent.id, items);
    if (plan.refused.length) return { status: "refused", plan };
    if (plan.overLimitBy > 0) return { status: "memory_full", plan };
    for (const [index, body] of plan.add.entries()) {
      const result = await remember(tx, {
        agentId: agent.id,
        workspaceId: agent.workspaceId,
        body,
        scope: "workspace",
        scopeRef: "",
        scopeLabel: null,
        source: { kind: "person", ref: owner.id, label: `@${owner.handle}`, channelId: null },
        by: { kind: "user", id: owner.id, name: owner.name },
        pinned: true,
        validUntil: plan.validUntil[index],
      });
      // The plan was made in this same write transaction, so this cannot happen; if it does, keep nothing.
      if (result.status !== "created") throw new Error(`Import stopped: a planned fact was ${result.status}.`);
    }
    if (plan.add.length) {
      const count = `${plan.add.length} workspace ${plan.add.length === 1 ? "fact" : "facts"}`;
      const actor = { id: owner.id, name: owner.name };
      await recordAudit(tx, owner.workspaceId, actor, "facts.import", `${count} into @${agent.handle}'s memory`);
    }
    return { status: "imported", plan };
  });
}

async function isOwner(tx: Conn, viewer: PersonActor): Promise<boolean> {
  const rows = await tx.all(sql`SELECT 1 FROM memberships
    WHERE workspace_id = ${viewer.workspaceId} AND user_id = ${viewer.id} AND role = 'owner'`);
  return rows.length > 0;
}
