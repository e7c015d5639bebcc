import { describe, expect, it } from "vitest";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { workspacesOf } from "./workspaces";

const t = tempDbForTests({ demo: true });

describe("workspacesOf", () => {
  it("lists only the person's workspaces, each agent with the facts it keeps", async () => {
    expect(await workspacesOf(t.db, "ana")).toEqual([
      { id: "acme", name: "Acme", role: "member", agents: [{ id: "scout", handle: "scout", name: "Scout", facts: 8 }] },
    ]);
    expect(await workspacesOf(t.db, "gina")).toEqual([
      { id: "globex", name: "Globex", role: "owner", agents: [{ id: "echo", handle: "echo", name: "Echo", facts: 1 }] },
    ]);
  });

  it("is empty for someone in no workspace", async () => {
    expect(await workspacesOf(t.db, "nobody")).toEqual([]);
  });
});
