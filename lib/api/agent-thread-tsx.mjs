// The agent thread's entry when Mnemo runs from source (tests, tsx): tsx compiles the TypeScript it imports.
// A built server runs the entry Next bundled instead (agent-thread.ts).
import { workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

register();
await import(pathToFileURL(workerData.entry).href);
