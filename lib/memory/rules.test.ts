/**
 * THE RULES of rules.ts, tested adversarially: thousands of generated places,
 * people, facts and viewers per property, drawn from small pools of ids so that
 * workspaces, channels and people collide, plus the demo workspace of db/seed.ts as
 * examples a person can read.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  agentMayForget,
  changeableBy,
  expired,
  narrowed,
  proposalReasonFor,
  recallable,
  scopeFor,
  utcDay,
  visibleTo,
  type ChannelKind,
  type FactRow,
  type FactScope,
  type Place,
  type Scope,
  type Viewer,
  type WritePolicy,
} from "./rules";
import {
  CHANNELS,
  MANY,
  REFS,
  channelId,
  exampleFact,
  personId,
  scope,
  unknownScope,
  workspaceId,
} from "./test-facts";

// --- Places, facts and viewers, from the small pools of test-facts.ts ---

const kind = fc.constantFrom<ChannelKind>("public", "private", "dm");

/** Nobody, one person, or several (duplicates included). */
const people = fc.oneof(
  fc.constant<string[]>([]),
  personId.map((p) => [p]),
  fc.array(personId, { minLength: 2, maxLength: 5 }),
);

const place: fc.Arbitrary<Place> = fc.record({ workspaceId, channelId, kind, people });

const fact: fc.Arbitrary<FactScope> = fc.record({ workspaceId, scope, scopeRef: fc.constantFrom(...REFS) });
const factIn = (s: Scope) => fact.map((f) => ({ ...f, scope: s }));

/**
 * A fact and a place, half the time built around the fact (its workspace; its ref as
 * the channel and among the people) so that near misses are common: a group DM with
 * the person, a private channel of just that person, a public channel they asked in.
 */
const factAndPlace = (facts: fc.Arbitrary<FactScope>) =>
  fc.tuple(facts, place, fc.boolean(), fc.boolean()).map(([f, p, sameWorkspace, aroundRef]) => {
    const near = { ...p };
    if (sameWorkspace) near.workspaceId = f.workspaceId;
    if (aroundRef) {
      near.channelId = f.scopeRef;
      near.people = p.people.length > 1 ? [...p.people.slice(1), f.scopeRef] : [f.scopeRef];
    }
    return { fact: f, place: near };
  });

type TestViewer = Viewer & { readable: string[] };
const viewer: fc.Arbitrary<TestViewer> = fc
  .record({ workspaceId, id: personId, owner: fc.boolean(), readable: fc.subarray(CHANNELS) })
  .map((v) => ({ ...v, canRead: (c: string) => v.readable.includes(c) }));

const wanted = fc.constantFrom<Scope | null>(null, "workspace", "channel", "person");
const onlyFor = fc.option(personId, { nil: null });

// --- Oracles restated from the rules as SECURITY.md's table words them, not from the code ---

const isSoloDmWith = (p: Place, person: string) => p.kind === "dm" && p.people.length === 1 && p.people[0] === person;

/** Recall follows the scope: workspace facts anywhere in it, channel facts in that channel, person facts in a solo DM with that person. */
function shouldRecall(f: FactScope, p: Place): boolean {
  if (f.workspaceId !== p.workspaceId) return false;
  if (f.scope === "workspace") return true;
  if (f.scope === "channel") return f.scopeRef === p.channelId;
  if (f.scope === "person") return isSoloDmWith(p, f.scopeRef);
  return false;
}

// --- Properties ---

describe("recall follows the scope", () => {
  it("a person fact is recalled only in a solo DM with that very person, in the same workspace", () => {
    fc.assert(
      fc.property(factAndPlace(factIn("person")), ({ fact: f, place: p }) => {
        const expected = f.workspaceId === p.workspaceId && isSoloDmWith(p, f.scopeRef);
        expect(recallable(f, p)).toBe(expected);
      }),
      MANY,
    );
  });

  it("a channel fact is recalled only in its own channel, whatever the kind or people", () => {
    fc.assert(
      fc.property(factAndPlace(factIn("channel")), ({ fact: f, place: p }) => {
        expect(recallable(f, p)).toBe(f.workspaceId === p.workspaceId && f.scopeRef === p.channelId);
      }),
      MANY,
    );
  });

  it("a workspace fact is recalled everywhere in its workspace", () => {
    fc.assert(
      fc.property(factAndPlace(factIn("workspace")), ({ fact: f, place: p }) => {
        expect(recallable(f, p)).toBe(f.workspaceId === p.workspaceId);
      }),
      MANY,
    );
  });

  it("nothing of another workspace is ever recalled, seen or changed — not even by an owner", () => {
    fc.assert(
      fc.property(factAndPlace(fact), viewer, fc.boolean(), ({ fact: f, place: p }, v, owner) => {
        const elsewhere = { ...f, workspaceId: `${p.workspaceId}-other` };
        expect(recallable(elsewhere, p)).toBe(false);
        const outsider = { ...v, workspaceId: `${f.workspaceId}-other`, owner };
        expect(visibleTo(f, outsider)).toBe(false);
        expect(changeableBy(f, outsider)).toBe(false);
        if (f.workspaceId !== p.workspaceId) expect(recallable(f, p)).toBe(false);
        if (f.workspaceId !== v.workspaceId) {
          expect(visibleTo(f, v)).toBe(false);
          expect(changeableBy(f, v)).toBe(false);
        }
        const own = { ...elsewhere, agentId: "scout", pinned: false, createdByKind: "agent", sourceKind: "message" };
        expect(agentMayForget(own, "scout", p)).toBe("not_found");
      }),
      MANY,
    );
  });

  it("a fact with an unknown scope is never recalled, seen or changed", () => {
    fc.assert(
      fc.property(
        fact,
        unknownScope,
        place,
        viewer,
        fc.boolean(),
        (f, s, p, v, sameWorkspace) => {
          const odd = { ...f, scope: s, workspaceId: sameWorkspace ? p.workspaceId : f.workspaceId };
          expect(recallable(odd, p)).toBe(false);
          const insider = { ...v, workspaceId: odd.workspaceId, owner: true, canRead: () => true };
          expect(visibleTo(odd, insider)).toBe(false);
          expect(changeableBy(odd, insider)).toBe(false);
          expect(visibleTo(odd, v)).toBe(false);
          expect(changeableBy(odd, v)).toBe(false);
        },
      ),
      MANY,
    );
  });

  it("recallable agrees with the restated rule for any fact in any place", () => {
    fc.assert(
      fc.property(factAndPlace(fact), ({ fact: f, place: p }) => {
        expect(recallable(f, p)).toBe(shouldRecall(f, p));
      }),
      MANY,
    );
  });
});

describe("expiry", () => {
  const day = fc.constantFrom("2026-06-13", "2026-06-14", "2026-06-15", "2026-06-16", "2027-01-01", "");

  it("a fact holds through its last day (UTC) and is recalled nowhere from the next; without a date it never ends", () => {
    fc.assert(
      fc.property(factAndPlace(fact), fc.option(day, { nil: null }), day, ({ fact: f, place: p }, until, today) => {
        const dated = { ...f, validUntil: until };
        const over = until !== null && until < today;
        expect(expired(dated, today)).toBe(over);
        expect(recallable(dated, p, today)).toBe(!over && shouldRecall(f, p));
      }),
      MANY,
    );
  });

  it("at the boundary: valid until yesterday is not recalled, until today is", () => {
    const releases = { ...exampleFact("releases", "acme", "workspace", "", "Releases go out on Thursdays.") };
    const general: Place = { workspaceId: "acme", channelId: "general", kind: "public", people: ["ana"] };
    expect(recallable({ ...releases, validUntil: "2026-06-14" }, general, "2026-06-15")).toBe(false);
    expect(recallable({ ...releases, validUntil: "2026-06-15" }, general, "2026-06-15")).toBe(true);
    expect(recallable({ ...releases, validUntil: null }, general, "2026-06-15")).toBe(true);
    // An agent can't forget what it can no longer recall: people renew or forget it.
    const own = { ...releases, agentId: "scout", pinned: false, createdByKind: "agent", sourceKind: "message" };
    expect(agentMayForget({ ...own, validUntil: "2026-06-14" }, "scout", general, "2026-06-15")).toBe("not_found");
    expect(agentMayForget({ ...own, validUntil: "2026-06-15" }, "scout", general, "2026-06-15")).toBe("allowed");
  });

  it("utcDay is the UTC date, whatever the local time zone says", () => {
    expect(utcDay(new Date("2026-06-15T23:59:59.999Z"))).toBe("2026-06-15");
    expect(utcDay(new Date("2026-06-16T00:00:00.000Z"))).toBe("2026-06-16");
    expect(utcDay(new Date("2026-06-15T23:30:00-05:00"))).toBe("2026-06-16");
  });
});

describe("proposals", () => {
  const policy = fc.constantFrom<WritePolicy>("wait", "keep");

  it("a proposal is recalled nowhere, whatever its scope, place or day", () => {
    fc.assert(
      fc.property(factAndPlace(fact), fc.constantFrom("2026-06-01T00:00:00.000Z", "x"), ({ fact: f, place: p }, at) => {
        expect(recallable({ ...f, proposedAt: at }, p)).toBe(false);
        expect(recallable({ ...f, proposedAt: null }, p)).toBe(shouldRecall(f, p));
        // Not recallable, so not the agent's to forget either: people decide it.
        const own = { ...f, agentId: "scout", proposedAt: at, pinned: false, createdByKind: "agent", sourceKind: "message" };
        expect(agentMayForget(own, "scout", p)).toBe("not_found");
      }),
      MANY,
    );
  });

  it("who waits: an agent's instruction-like text always, else its setting for the scope; people never", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<"agent" | "user">("agent", "user"),
        fc.constantFrom<Scope>("workspace", "channel", "person"),
        policy,
        policy,
        fc.boolean(),
        (writer, s, workspaceFacts, channelFacts, instruction) => {
          const reason = proposalReasonFor(writer, s, { workspaceFacts, channelFacts }, instruction);
          const setting = s === "workspace" ? workspaceFacts : s === "channel" ? channelFacts : "keep";
          const expected = writer === "user" ? null : instruction ? "instruction" : setting === "wait" ? "setting" : null;
          expect(reason).toBe(expected);
        },
      ),
    );
    // The defaults: workspace facts wait, channel facts do not.
    const defaults = { workspaceFacts: "wait", channelFacts: "keep" } as const;
    expect(proposalReasonFor("agent", "workspace", defaults, false)).toBe("setting");
    expect(proposalReasonFor("agent", "channel", defaults, false)).toBeNull();
    expect(proposalReasonFor("agent", "person", defaults, true)).toBe("instruction");
  });
});

describe("writing follows the conversation (scopeFor)", () => {
  it("never grants a scope wider than the place allows, and `onlyFor` always wins", () => {
    fc.assert(
      fc.property(place, wanted, onlyFor, (p, w, only) => {
        const granted = scopeFor(p, w, only);

        // Workspace only when asked for, in a public channel, and the turn read nothing private.
        expect(granted.scope === "workspace").toBe(w === "workspace" && p.kind === "public" && only === null);
        if (granted.scope === "workspace") expect(granted.ref).toBe("");

        // A person fact is onlyFor's, or the solo DM's person when no channel fact was asked for.
        if (granted.scope === "person") {
          if (only !== null) expect(granted.ref).toBe(only);
          else {
            expect(isSoloDmWith(p, granted.ref)).toBe(true);
            expect(w).not.toBe("channel");
          }
        }

        // A channel fact is always this channel's.
        if (granted.scope === "channel") expect(granted.ref).toBe(p.channelId);

        if (only !== null) expect(granted).toEqual({ scope: "person", ref: only });

        expect(narrowed(w, granted.scope)).toBe(w !== null && w !== granted.scope);
      }),
      MANY,
    );
  });

  it("what is written in a place is recallable there, unless it was kept for onlyFor outside a solo DM with them", () => {
    fc.assert(
      fc.property(place, wanted, onlyFor, (p, w, only) => {
        const granted = scopeFor(p, w, only);
        const written = { workspaceId: p.workspaceId, scope: granted.scope, scopeRef: granted.ref };
        expect(recallable(written, p)).toBe(only === null || isSoloDmWith(p, only));
      }),
      MANY,
    );
  });
});

describe("seeing and changing follow recall", () => {
  it("a viewer sees exactly what the scope allows, and being an owner changes nothing", () => {
    fc.assert(
      fc.property(fact, viewer, (f, v) => {
        const seen = visibleTo(f, v);
        expect(visibleTo(f, { ...v, owner: !v.owner })).toBe(seen);

        const same = f.workspaceId === v.workspaceId;
        if (f.scope === "workspace") expect(seen).toBe(same);
        else if (f.scope === "channel") expect(seen).toBe(same && v.readable.includes(f.scopeRef));
        else if (f.scope === "person") expect(seen).toBe(same && f.scopeRef === v.id);
        else expect(seen).toBe(false);
      }),
      MANY,
    );
  });

  it("an owner never sees another person's fact nor a channel fact of a channel they can't read", () => {
    fc.assert(
      fc.property(fact, viewer, (f, v) => {
        const owner = { ...v, owner: true, workspaceId: f.workspaceId };
        if (f.scope === "person" && f.scopeRef !== owner.id) expect(visibleTo(f, owner)).toBe(false);
        if (f.scope === "channel" && !owner.readable.includes(f.scopeRef)) expect(visibleTo(f, owner)).toBe(false);
      }),
      MANY,
    );
  });

  it("only owners change workspace facts; any other fact is changeable by exactly those who see it", () => {
    fc.assert(
      fc.property(fact, viewer, (f, v) => {
        if (f.scope === "workspace") expect(changeableBy(f, v)).toBe(f.workspaceId === v.workspaceId && v.owner);
        else expect(changeableBy(f, v)).toBe(visibleTo(f, v));
      }),
      MANY,
    );
  });
});

describe("agentMayForget", () => {
  const forgettable = fc
    .tuple(
      factAndPlace(fact),
      fc.record({
        agentId: fc.constantFrom("scout", "echo"),
        pinned: fc.boolean(),
        createdByKind: fc.oneof(fc.constantFrom("agent", "agent", "user", "person"), fc.string()),
        sourceKind: fc.oneof(fc.constantFrom("message", "session", "person"), fc.string()),
        forgottenAt: fc.constantFrom<string | null | undefined>(null, undefined, undefined, "2025-03-01T00:00:00.000Z"),
      }),
      fc.constantFrom("scout", "echo"),
    )
    .map(([{ fact: f, place: p }, extra, agent]) => ({ fact: { ...f, ...extra }, place: p, agent }));

  it("not_found outside recall, for another agent's or a forgotten fact; forbidden for pinned or people's facts", () => {
    fc.assert(
      fc.property(forgettable, ({ fact: f, place: p, agent }) => {
        const answer = agentMayForget(f, agent, p);
        const hidden = !shouldRecall(f, p) || f.agentId !== agent || !!f.forgottenAt;
        if (hidden) {
          expect(answer).toBe("not_found");
          return;
        }
        if (f.pinned || f.createdByKind !== "agent" || f.sourceKind === "person") {
          expect(answer).toBe("forbidden");
          return;
        }
        if (f.scope === "workspace") expect(answer).toBe(p.kind === "public" ? "allowed" : "forbidden");
        else expect(answer).toBe("allowed");
      }),
      MANY,
    );
  });
});

// --- The demo workspace of db/seed.ts ---

const demo = {
  releases: exampleFact("releases", "acme", "workspace", "", "Releases go out on Thursdays."),
  sso: exampleFact("sso", "acme", "workspace", "", "The Enterprise plan includes SSO."),
  refunds: exampleFact("refunds", "acme", "channel", "support", "Refunds over $500 need a manager's approval."),
  budget: exampleFact("budget", "acme", "channel", "leadership", "The Q3 budget freeze lifts in October."),
  pairing: exampleFact("pairing", "acme", "channel", "group-max-ana", "Max and Ana are pairing on the billing migration."),
  anaDm: exampleFact("ana-dm", "acme", "channel", "dm-ana", "We said we'd talk again on Monday."),
  ana: exampleFact("ana", "acme", "person", "ana", "Ana prefers replies in Portuguese."),
  max: exampleFact("max", "acme", "person", "max", "Max is on call the first week of each month."),
  gus: exampleFact("gus", "acme", "person", "gus", "Gus is new; explain acronyms."),
  springfield: exampleFact("springfield", "globex", "workspace", "", "Globex ships from Springfield."),
};
const demoFacts = Object.values(demo);

const at = (channelId: string, kind: ChannelKind, who: string[], workspaceId = "acme"): Place => ({
  workspaceId,
  channelId,
  kind,
  people: who,
});
const recalledIn = (p: Place) =>
  demoFacts
    .filter((f) => recallable(f, p))
    .map((f) => f.id)
    .sort();
const ids = (...facts: FactRow[]) => facts.map((f) => f.id).sort();

const member = (id: string, owner: boolean, readable: string[]): Viewer => ({
  workspaceId: "acme",
  id,
  owner,
  canRead: (c) => readable.includes(c),
});

describe("the demo workspace", () => {
  it("in Ana's solo DM: the workspace, Ana's own facts and that DM's facts, but never Max's", () => {
    expect(recalledIn(at("dm-ana", "dm", ["ana"]))).toEqual(ids(demo.releases, demo.sso, demo.anaDm, demo.ana));
  });

  it("in the group DM of Max and Ana: no person facts at all, its own channel facts yes", () => {
    expect(recalledIn(at("group-max-ana", "dm", ["max", "ana"]))).toEqual(ids(demo.releases, demo.sso, demo.pairing));
  });

  it("in the private leadership channel: the workspace and leadership facts only", () => {
    expect(recalledIn(at("leadership", "private", ["olivia", "max"]))).toEqual(ids(demo.releases, demo.sso, demo.budget));
  });

  it("in #support asked by Gus: support's facts, not Gus's own (a public channel is not his DM)", () => {
    expect(recalledIn(at("support", "public", ["gus"]))).toEqual(ids(demo.releases, demo.sso, demo.refunds));
  });

  it("in Globex: only Globex's facts; Acme's never", () => {
    expect(recalledIn(at("lobby", "public", ["gina"], "globex"))).toEqual(ids(demo.springfield));
    expect(recalledIn(at("dm-ana", "dm", ["ana"], "globex"))).toEqual(ids(demo.springfield));
  });

  it("Olivia, an owner, sees and changes the workspace facts but not Ana's fact nor the DM of Max and Ana", () => {
    const olivia = member("olivia", true, ["general", "support", "leadership", "dm-olivia"]);
    const seen = demoFacts.filter((f) => visibleTo(f, olivia)).map((f) => f.id).sort();
    expect(seen).toEqual(ids(demo.releases, demo.sso, demo.refunds, demo.budget));
    expect(changeableBy(demo.releases, olivia)).toBe(true);
    expect(changeableBy(demo.ana, olivia)).toBe(false);
    expect(changeableBy(demo.pairing, olivia)).toBe(false);
  });

  it("Max sees the workspace facts but can't change them; he changes his own and his conversations' facts", () => {
    const max = member("max", false, ["general", "support", "leadership", "dm-max", "group-max-ana"]);
    const seen = demoFacts.filter((f) => visibleTo(f, max)).map((f) => f.id).sort();
    expect(seen).toEqual(ids(demo.releases, demo.sso, demo.refunds, demo.budget, demo.pairing, demo.max));
    expect(changeableBy(demo.releases, max)).toBe(false);
    expect(changeableBy(demo.max, max)).toBe(true);
    expect(changeableBy(demo.pairing, max)).toBe(true);
    expect(changeableBy(demo.gus, max)).toBe(false);
  });

  it("scopeFor in the demo places", () => {
    const general = at("general", "public", ["ana"]);
    expect(scopeFor(general, "workspace")).toEqual({ scope: "workspace", ref: "" });
    expect(scopeFor(general, "workspace", "ana")).toEqual({ scope: "person", ref: "ana" });
    expect(scopeFor(general, null)).toEqual({ scope: "channel", ref: "general" });
    expect(scopeFor(general, "person")).toEqual({ scope: "channel", ref: "general" });
    expect(scopeFor(at("dm-ana", "dm", ["ana"]), null)).toEqual({ scope: "person", ref: "ana" });
    expect(scopeFor(at("dm-ana", "dm", ["ana"]), "workspace")).toEqual({ scope: "person", ref: "ana" });
    expect(scopeFor(at("dm-ana", "dm", ["ana"]), "channel")).toEqual({ scope: "channel", ref: "dm-ana" });
    expect(scopeFor(at("group-max-ana", "dm", ["max", "ana"]), "workspace")).toEqual({ scope: "channel", ref: "group-max-ana" });
    expect(scopeFor(at("leadership", "private", ["olivia", "max"]), "workspace")).toEqual({ scope: "channel", ref: "leadership" });
  });

  it("Scout forgets only what it may from where it is", () => {
    const support = at("support", "public", ["ana"]);
    const general = at("general", "public", ["ana"]);
    const told = { ...demo.releases, createdByKind: "user", sourceKind: "person", pinned: true };
    expect(agentMayForget(told, "scout", general)).toBe("forbidden");
    expect(agentMayForget(demo.sso, "scout", general)).toBe("allowed");
    expect(agentMayForget(demo.sso, "scout", at("dm-ana", "dm", ["ana"]))).toBe("forbidden");
    expect(agentMayForget(demo.refunds, "scout", support)).toBe("allowed");
    expect(agentMayForget(demo.refunds, "scout", general)).toBe("not_found");
    expect(agentMayForget(demo.refunds, "echo", support)).toBe("not_found");
    expect(agentMayForget({ ...demo.refunds, forgottenAt: "2025-03-01T00:00:00.000Z" }, "scout", support)).toBe("not_found");
    expect(agentMayForget({ ...demo.max, pinned: true }, "scout", at("dm-max", "dm", ["max"]))).toBe("forbidden");
    expect(agentMayForget(demo.gus, "scout", at("support", "public", ["gus"]))).toBe("not_found");
  });
});
