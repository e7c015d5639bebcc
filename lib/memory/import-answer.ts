/** What the import form's server action answers: counts and item numbers, never fact text. */
export type ImportSummary = {
  toAdd: number;
  duplicates: number;
  otherScopes: number;
  /** The first refused items, by number in the file (1-based), with why. */
  refused: { item: number; reason: string }[];
  refusedCount: number;
  /** Facts the agent keeps now, and how far past the limit the import would go. */
  kept: number;
  overLimitBy: number;
};

export type ImportState =
  | { status: "idle" }
  /** The dry run: what would happen. `canImport` is false when anything stops the whole file. */
  | { status: "checked"; summary: ImportSummary; canImport: boolean; message: string }
  | { status: "imported"; summary: ImportSummary; message: string }
  | { status: "failed" | "invalid_data"; message: string; summary?: ImportSummary };
