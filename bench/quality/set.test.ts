/**
 * Keeps the recall-quality set (set/*.json) from rotting: big enough, every id
 * unique and known, every evidence fact recallable where its question is asked
 * (by the pure rules), every kind present, and evidence neither systematically
 * old nor new, so today's order stays a fair baseline.
 */
import { describe, expect, it } from "vitest";
import { cleanFact } from "@/lib/memory/fact-text";
import { recallable, soloPerson } from "@/lib/memory/rules";
import { KINDS, SPLITS, allowedIds, factScope, loadSet, placeOf } from "./set";

const set = loadSet();
const factById = new Map(set.facts.map((f) => [f.id, f]));

describe("the recall-quality set", () => {
  it("is big enough: at least 300 facts over several agents, 200 questions", () => {
    expect(set.facts.length).toBeGreaterThanOrEqual(300);
    expect(set.questions.length).toBeGreaterThanOrEqual(200);
    expect(set.agents.length).toBeGreaterThanOrEqual(3);
  });

  it("has unique ids: facts, questions, people, channels, agents", () => {
    for (const ids of [set.facts, set.questions, set.people, set.channels, set.agents, set.workspaces].map((xs) => xs.map((x) => x.id))) {
      expect(new Set(ids).size).toBe(ids.length);
    }
    // A fact and a question never share an id either: results name both.
    const all = [...set.facts, ...set.questions].map((x) => x.id);
    expect(new Set(all).size).toBe(all.length);
  });

  it("keeps the world consistent: people, channels and agents of known workspaces", () => {
    const workspaceIds = new Set(set.workspaces.map((w) => w.id));
    const personIn = (id: string, workspace: string) => set.people.some((p) => p.id === id && p.workspace === workspace);
    for (const p of set.people) expect(workspaceIds.has(p.workspace), p.id).toBe(true);
    for (const a of set.agents) expect(workspaceIds.has(a.workspace), a.id).toBe(true);
    for (const c of set.channels) {
      expect(workspaceIds.has(c.workspace), c.id).toBe(true);
      for (const person of c.people) expect(personIn(person, c.workspace), `${c.id}: ${person}`).toBe(true);
      if (c.kind === "dm" && c.people.length === 1) expect(c.id, "a solo DM is named dm-<person>").toBe(`dm-${c.people[0]}`);
    }
  });

  it("writes facts as Mnemo keeps them: clean text, a real scope, sane times", () => {
    for (const f of set.facts) {
      expect(cleanFact(f.body), f.id).toBe(f.body);
      if (f.scope === "workspace") expect(f.ref, f.id).toBeUndefined();
      if (f.scope === "channel") expect(set.channels.some((c) => c.id === f.ref && c.workspace === f.workspace), f.id).toBe(true);
      if (f.scope === "person") {
        expect(set.people.some((p) => p.id === f.ref && p.workspace === f.workspace), f.id).toBe(true);
        // Person facts are heard in that person's solo DM, which the runner names as their source.
        expect(set.channels.some((c) => c.id === `dm-${f.ref}`), f.id).toBe(true);
      }
      if (f.told) expect(set.people.some((p) => p.id === f.told && p.workspace === f.workspace), f.id).toBe(true);
      expect(f.updated >= f.created, f.id).toBe(true);
    }
    const pinned = set.facts.filter((f) => f.pinned).length;
    expect(pinned).toBeGreaterThan(0);
    expect(pinned).toBeLessThanOrEqual(10);
  });

  it("asks every question where its asker may be: a member, and a reader of a channel that is not public", () => {
    for (const q of set.questions) {
      const channel = set.channels.find((c) => c.id === q.channel);
      expect(channel?.workspace, q.id).toBe(q.workspace);
      expect(set.people.some((p) => p.id === q.asker && p.workspace === q.workspace), q.id).toBe(true);
      if (channel?.kind !== "public") expect(channel?.people, q.id).toContain(q.asker);
    }
  });

  it("gives every question evidence that exists, is its agent's, and is recallable where it is asked", () => {
    for (const q of set.questions) {
      const place = placeOf(set, q);
      for (const id of q.evidence) {
        const f = factById.get(id);
        expect(f, `${q.id}: ${id}`).toBeDefined();
        expect(f?.agent, `${q.id}: ${id}`).toBe(q.agent);
        expect(recallable(factScope(f!), place), `${q.id}: ${id} in ${q.channel}`).toBe(true);
      }
      expect(new Set(q.evidence).size, q.id).toBe(q.evidence.length);
    }
  });

  it("covers every kind, in both splits, with evidence as each kind needs", () => {
    for (const kind of KINDS) {
      for (const split of SPLITS) expect(set.questions.some((q) => q.kind === kind && q.split === split), `${kind} ${split}`).toBe(true);
    }
    for (const q of set.questions) {
      if (q.kind === "none") expect(q.evidence, q.id).toEqual([]);
      else if (q.kind === "two-facts") expect(q.evidence.length, q.id).toBeGreaterThanOrEqual(2);
      else expect(q.evidence.length, q.id).toBeGreaterThanOrEqual(1);
    }
    const dev = set.questions.filter((q) => q.split === "dev").length;
    expect(Math.abs(dev - (set.questions.length - dev))).toBeLessThanOrEqual(1);
  });

  it("asks in places of every kind, and most places hold more than a recall's 40 facts or near it", () => {
    const kinds = new Set(set.questions.map((q) => {
      const place = placeOf(set, q);
      return soloPerson(place) ? "solo dm" : place.kind === "dm" ? "group dm" : place.kind;
    }));
    expect([...kinds].sort()).toEqual(["group dm", "private", "public", "solo dm"]);
    const sizes = set.questions.map((q) => allowedIds(set, q).size);
    expect(sizes.filter((n) => n > 40).length / sizes.length).toBeGreaterThan(0.5);
  });

  it("dates evidence like everything else: neither systematically newer nor older than the place's other facts", () => {
    // Where each evidence fact falls in today's order among the unpinned facts allowed in its place, 0 newest .. 1 oldest.
    const positions: number[] = [];
    for (const q of set.questions) {
      const allowed = [...allowedIds(set, q)].map((id) => factById.get(id)!).filter((f) => !f.pinned);
      allowed.sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0));
      for (const id of q.evidence) {
        const at = allowed.findIndex((f) => f.id === id);
        if (at >= 0 && allowed.length > 1) positions.push(at / (allowed.length - 1));
      }
    }
    const mean = positions.reduce((a, b) => a + b, 0) / positions.length;
    expect(mean).toBeGreaterThan(0.4);
    expect(mean).toBeLessThan(0.6);
  });
});
