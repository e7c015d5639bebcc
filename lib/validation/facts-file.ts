/**
 * The facts file: what "Download as JSON" writes and "Import workspace facts"
 * reads. Facts are in the agent API's wire shape (wire.ts's toMemory) plus how
 * often agents recalled them and their history. Import reads only `scope`,
 * `body` and `valid_until` of each fact, so a file written by hand needs nothing else (recall counts
 * belong to the memory they were counted in: an imported fact starts at none);
 * each fact is checked on its own so a refusal can say which item it is.
 */
import { z } from "zod";
import { MAX_FACT, MAX_FACTS, SCOPES } from "@/lib/memory/rules";
import type { Memory } from "./agent-api";

export const FACTS_FILE_FORMAT = "mnemo.facts";
export const FACTS_FILE_VERSION = 1;

export type ExportedEvent = {
  kind: string;
  actor_kind: string;
  actor_name: string;
  before: string | null;
  after: string | null;
  at: string;
};

export type ExportedFact = Memory & {
  /** How often agents recalled it (lib/memory/usage.ts), and when last; null when never. */
  recalled_count: number;
  last_recalled_at: string | null;
  history: ExportedEvent[];
};

export type FactsFile = {
  format: typeof FACTS_FILE_FORMAT;
  version: typeof FACTS_FILE_VERSION;
  exported_at: string;
  workspace: { id: string; name: string };
  agent: { handle: string; name: string };
  facts: ExportedFact[];
};

/** The file as a whole: ours, a version we read, and a list of facts of a size one agent can hold. */
export const factsFileShape = z.object({
  format: z.literal(FACTS_FILE_FORMAT, {
    error: "This is not a Mnemo facts file. Use a file made by “Download as JSON” on a Memory page.",
  }),
  version: z.literal(FACTS_FILE_VERSION, {
    error: `This facts file has a version this Mnemo does not read (it reads version ${FACTS_FILE_VERSION}).`,
  }),
  facts: z
    .array(z.unknown(), { error: "The file has no list of facts." })
    .max(MAX_FACTS, `A facts file holds at most ${MAX_FACTS.toLocaleString("en-US")} facts, as one agent does.`),
});

/** One fact of the file, as import reads it. Whitespace runs count as one space, as they are kept. */
export const importedFact = z.object(
  {
    scope: z.enum(SCOPES, { error: "its scope must be workspace, channel or person" }),
    body: z
      .string({ error: "its body must be text" })
      .refine((body) => body.trim() !== "", "its body is empty")
      .refine(
        (body) => body.replace(/\s+/g, " ").trim().length <= MAX_FACT,
        `its body is longer than ${MAX_FACT} characters`,
      ),
    valid_until: z.iso.date({ error: 'its valid_until must be a date ("YYYY-MM-DD") or null' }).nullish(),
  },
  { error: "it is not a fact (an object with scope and body)" },
);
