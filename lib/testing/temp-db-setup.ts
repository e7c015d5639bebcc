/**
 * Vitest's global setup for the file-mode suites: one folder for the run where each
 * test process keeps its starting databases (lib/testing/temp-db.ts: a migrated
 * file, and one with the demo seeded, that every test database of the process
 * copies), removed when the run ends — a test process is stopped, not left to
 * clean up after itself.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    tempDbTemplates: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), "mnemo-templates-"));
  project.provide("tempDbTemplates", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
