// The entry of the server's own threads (lib/ops/threads.ts) when Mnemo runs from source (tests, tsx): tsx compiles
// the TypeScript the thread's entry imports. A built server runs the entry Next bundled instead.
import { workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

register();
await import(pathToFileURL(workerData.entry).href);
