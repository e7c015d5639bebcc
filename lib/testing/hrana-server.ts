/**
 * A stand-in for a libSQL server (sqld) in tests, because none can be installed
 * here (issue #19): Hrana over HTTP as @libsql/client 0.18 speaks it for `http://`
 * URLs, backed by a real libSQL file. Never shipped as a feature.
 *
 * What the client sends (node_modules/@libsql/hrana-client, http/): it never probes
 * for version 3 (openHttp defaults to 2), so every request is `POST v2/pipeline`
 * with JSON `{baton, requests}`; the requests are execute, batch (conditions ok /
 * not / and / or / error), sequence, store_sql, close_sql and close. Those are
 * served as the Hrana spec and sqld do; describe and get_autocommit (never sent)
 * and anything else are refused as sqld refuses a request it cannot serve: HTTP 400.
 *
 * As sqld: a stream (named by a baton, new in every answer, signed, single use) owns
 * one connection, so a transaction begun in one request is still open in the next;
 * `close` frees it (rolling back what was not committed); a stream idle for
 * `idleMs` expires with 400 `STREAM_EXPIRED`. A writer that finds the file locked
 * waits for the lock (asynchronously: the connections share this thread) up to
 * `busyTimeoutMs`, then gets SQLITE_BUSY. A closed stream's connection goes back to
 * a small pool, clean (no transaction, no stored SQL), for the next stream: opening
 * a file and parsing its schema on every request would be most of a request's cost. Values as the spec says: integers as
 * strings, floats as numbers, blobs as base64 — and a JS number from the client
 * arrives as a float and is bound as REAL, exactly as sqld binds it.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Database from "libsql";
import { retryWhileBusy } from "@/db/lock-wait";

export type HranaServerOptions = {
  file: string;
  /** When set, every request must carry `Authorization: Bearer <authToken>` (sqld's JWT, Turso's token). */
  authToken?: string;
  /** How long a stream may sit unused before it expires (sqld: 10 s). */
  idleMs?: number;
  /**
   * How long a writer waits for another connection's lock before SQLITE_BUSY. sqld
   * makes writers wait (and steals the lock from a transaction held past 5 s, which
   * this stand-in does not); the bound only keeps a stuck test from hanging.
   */
  busyTimeoutMs?: number;
  /**
   * Deliberately wrong, for the test that proves the suite would notice: rolls back
   * whatever transaction a stream has open at the end of every HTTP request, as a
   * server would that does not hold a connection per baton.
   */
  dropTransactionsBetweenRequests?: boolean;
};

export type HranaServer = {
  url: string;
  /** Streams with a live connection right now. */
  openStreams(): number;
  /** How many stream requests of each type were served (execute, batch, …). */
  served: Map<string, number>;
  /** HTTP requests answered so far: each one a network round trip for the client. */
  roundTrips(): number;
  close(): Promise<void>;
};

type Value =
  | { type: "null" }
  | { type: "integer"; value: string }
  | { type: "float"; value: number }
  | { type: "text"; value: string }
  | { type: "blob"; base64: string };
type Stmt = { sql?: string | null; sql_id?: number | null; args?: Value[]; named_args?: { name: string; value: Value }[]; want_rows?: boolean };
type Cond =
  | { type: "ok" | "error"; step: number }
  | { type: "not"; cond: Cond }
  | { type: "and" | "or"; conds: Cond[] }
  | { type: "is_autocommit" };
type Request =
  | { type: "close" }
  | { type: "execute"; stmt: Stmt }
  | { type: "batch"; batch: { steps: { condition?: Cond | null; stmt: Stmt }[] } }
  | { type: "sequence"; sql?: string | null; sql_id?: number | null }
  | { type: "store_sql"; sql_id: number; sql: string }
  | { type: "close_sql"; sql_id: number };
type HranaError = { message: string; code: string };
type StmtResult = { cols: { name: string | null; decltype: string | null }[]; rows: Value[][]; affected_row_count: number; last_insert_rowid: string | null };

/** A request the stand-in refuses as a whole (sqld: a protocol error, 400 with a plain-text reason). */
class ProtocolError extends Error {}

/** A per-request failure, answered inside the pipeline's results. */
class RequestError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

/** A connection and the statements prepared on it, which stay valid while it waits in the pool. */
type Connection = { conn: Database.Database; statements: Map<string, Database.Statement>; tainted: boolean };

type Stream = Connection & {
  id: string;
  seq: number;
  sqls: Map<number, string>;
  acquired: boolean;
  timer?: NodeJS.Timeout;
};

/** Idle connections kept per stand-in: about as many streams as a test has open at once. */
const POOL_SIZE = 8;

const SERVED_TYPES = new Set(["close", "execute", "batch", "sequence", "store_sql", "close_sql"]);

export async function startHranaServer(options: HranaServerOptions): Promise<HranaServer> {
  const idleMs = options.idleMs ?? 10_000;
  const busyTimeoutMs = options.busyTimeoutMs ?? 30_000;
  const key = randomBytes(32);
  const streams = new Map<string, Stream>();
  const expired = new Set<string>();
  const served = new Map<string, number>();
  // Woken whenever a connection may have let go of a lock, so waiting writers retry at once.
  let wakeWaiters: (() => void)[] = [];
  const lockMayBeFree = () => {
    const waiting = wakeWaiters;
    wakeWaiters = [];
    for (const wake of waiting) wake();
  };

  const sign = (id: string, seq: number) => createHmac("sha256", key).update(`${id}.${seq}`).digest("base64url");
  const batonOf = (stream: Stream) => `${stream.id}.${stream.seq}.${sign(stream.id, stream.seq)}`;

  const pool: Connection[] = [];

  function openStream(): Stream {
    // timeout 0: a locked file answers SQLITE_BUSY at once, and the wait happens in withLockWait.
    const connection = pool.pop() ?? { conn: new Database(options.file, { timeout: 0 }), statements: new Map(), tainted: false };
    const stream: Stream = { ...connection, id: randomBytes(12).toString("base64url"), seq: 0, sqls: new Map(), acquired: false };
    streams.set(stream.id, stream);
    return stream;
  }

  function closeStream(stream: Stream): void {
    clearTimeout(stream.timer);
    streams.delete(stream.id);
    // A stream that goes rolls back its open transaction, as sqld does.
    if (stream.conn.inTransaction) stream.conn.exec("ROLLBACK");
    // A connection whose settings a PRAGMA may have changed is not handed to another stream.
    if (stream.tainted || pool.length >= POOL_SIZE) {
      stream.statements.clear();
      stream.conn.close();
    } else {
      pool.push({ conn: stream.conn, statements: stream.statements, tainted: false });
    }
    lockMayBeFree();
  }

  function streamFor(baton: string): Stream {
    const [id, seq, signature] = baton.split(".");
    const expected = id && seq ? Buffer.from(sign(id, Number(seq))) : null;
    if (!expected || !signature || expected.length !== Buffer.from(signature).length || !timingSafeEqual(expected, Buffer.from(signature))) {
      throw new ProtocolError("Received an invalid baton");
    }
    if (expired.has(id)) throw Object.assign(new Error("The stream has expired due to inactivity"), { expired: true });
    const stream = streams.get(id);
    if (!stream) throw new ProtocolError("Received an invalid baton: the stream is closed");
    if (stream.acquired || stream.seq !== Number(seq)) throw new ProtocolError("Received a baton that was already used");
    return stream;
  }

  function prepared(stream: Stream, text: string): Database.Statement {
    let statement = stream.statements.get(text);
    if (!statement) {
      if (/^\s*PRAGMA\b/i.test(text)) stream.tainted = true;
      statement = stream.conn.prepare(text);
      stream.statements.set(text, statement);
    }
    return statement;
  }

  function sqlOf(stream: Stream, holder: { sql?: string | null; sql_id?: number | null }): string {
    if (typeof holder.sql === "string") return holder.sql;
    if (typeof holder.sql_id === "number") {
      const text = stream.sqls.get(holder.sql_id);
      if (text === undefined) throw new RequestError(`SQL text ${holder.sql_id} was not stored`, "SQL_NOT_FOUND");
      return text;
    }
    throw new ProtocolError("A statement needs sql or sql_id");
  }

  function decode(value: Value): unknown {
    switch (value?.type) {
      case "null":
        return null;
      case "integer":
        return BigInt(value.value);
      case "float":
        return Number(value.value);
      case "text":
        return value.value;
      case "blob":
        return Buffer.from(value.base64, "base64");
      default:
        throw new ProtocolError(`Unknown value type ${JSON.stringify((value as { type?: unknown })?.type)}`);
    }
  }

  function encode(value: unknown): Value {
    if (value === null || value === undefined) return { type: "null" };
    if (typeof value === "bigint") return { type: "integer", value: value.toString() };
    if (typeof value === "number") return { type: "float", value };
    if (typeof value === "string") return { type: "text", value };
    if (value instanceof Uint8Array) return { type: "blob", base64: Buffer.from(value).toString("base64") };
    throw new Error(`Cannot encode a ${typeof value}`);
  }

  /** Positional values as an array; with named ones, one object keyed by position and by name (prefix dropped, as libsql binds them). */
  function bindings(stmt: Stmt): unknown[] | Record<string, unknown> {
    const positional = (stmt.args ?? []).map(decode);
    if (!stmt.named_args?.length) return positional;
    const named: Record<string, unknown> = {};
    positional.forEach((value, i) => (named[String(i + 1)] = value));
    for (const { name, value } of stmt.named_args) named[name.replace(/^[:@$]/, "")] = decode(value);
    return named;
  }

  function counters(stream: Stream): { changes: number; total: number; rowid: bigint } {
    const statement = prepared(stream, "SELECT changes() AS c, total_changes() AS t, last_insert_rowid() AS r").safeIntegers(true);
    const row = statement.get([]) as { c: bigint; t: bigint; r: bigint };
    return { changes: Number(row.c), total: Number(row.t), rowid: row.r };
  }

  function executeOnce(stream: Stream, stmt: Stmt): StmtResult {
    const text = sqlOf(stream, stmt);
    const statement = prepared(stream, text);
    const cols = statement.columns().map((c) => ({ name: c.name ?? null, decltype: c.type ?? null }));
    const args = bindings(stmt);
    if (statement.reader) {
      const before = counters(stream).total;
      statement.raw(true).safeIntegers(true);
      const rows = statement.all(args) as unknown[][];
      const after = counters(stream);
      return {
        cols,
        rows: stmt.want_rows === false ? [] : rows.map((row) => row.map(encode)),
        // A SELECT changes nothing; a write with RETURNING counts its rows, as sqld reports changes() for writes.
        affected_row_count: after.total !== before ? after.changes : 0,
        last_insert_rowid: after.rowid.toString(),
      };
    }
    const info = statement.run(args) as { changes: number };
    return { cols, rows: [], affected_row_count: info.changes, last_insert_rowid: counters(stream).rowid.toString() };
  }

  // A waiter tries again every 5 ms, or as soon as a stream of this server lets a lock go.
  const lockReleased = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5);
      wakeWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  function withLockWait<T>(run: () => T): Promise<T> {
    return retryWhileBusy(run, busyTimeoutMs, lockReleased);
  }

  function sqliteError(error: unknown): HranaError {
    if (error instanceof RequestError) return { message: error.message, code: error.code };
    const { code, message } = error as { code?: string; message?: string };
    return { message: `SQLite error: ${message ?? String(error)}`, code: code ?? "SQLITE_UNKNOWN" };
  }

  function evaluate(cond: Cond, stream: Stream, outcomes: ("ok" | "error" | null)[]): boolean {
    switch (cond.type) {
      case "ok":
      case "error":
        if (!Number.isInteger(cond.step) || cond.step >= outcomes.length) throw new ProtocolError(`A condition names step ${cond.step}, which has not run yet`);
        return outcomes[cond.step] === cond.type;
      case "not":
        return !evaluate(cond.cond, stream, outcomes);
      case "and":
        return cond.conds.every((c) => evaluate(c, stream, outcomes));
      case "or":
        return cond.conds.some((c) => evaluate(c, stream, outcomes));
      default:
        // is_autocommit is Hrana 3; this endpoint is version 2.
        throw new ProtocolError(`Condition ${JSON.stringify((cond as { type?: unknown }).type)} is not supported in Hrana 2`);
    }
  }

  async function serve(stream: Stream, request: Request): Promise<{ type: string; [field: string]: unknown }> {
    switch (request.type) {
      case "execute":
        return { type: "execute", result: await withLockWait(() => executeOnce(stream, request.stmt)) };
      case "batch": {
        const outcomes: ("ok" | "error" | null)[] = [];
        const stepResults: (StmtResult | null)[] = [];
        const stepErrors: (HranaError | null)[] = [];
        for (const step of request.batch.steps) {
          if (step.condition && !evaluate(step.condition, stream, outcomes)) {
            outcomes.push(null);
            stepResults.push(null);
            stepErrors.push(null);
            continue;
          }
          try {
            stepResults.push(await withLockWait(() => executeOnce(stream, step.stmt)));
            stepErrors.push(null);
            outcomes.push("ok");
          } catch (error) {
            if (error instanceof ProtocolError) throw error;
            stepResults.push(null);
            stepErrors.push(sqliteError(error));
            outcomes.push("error");
          }
        }
        return { type: "batch", result: { step_results: stepResults, step_errors: stepErrors } };
      }
      case "sequence":
        if (/\bPRAGMA\b/i.test(sqlOf(stream, request))) stream.tainted = true;
        // Not retried on a busy lock: statements before the busy one have run already (Mnemo never sends a sequence).
        stream.conn.exec(sqlOf(stream, request));
        return { type: "sequence" };
      case "store_sql":
        if (stream.sqls.has(request.sql_id)) throw new ProtocolError(`SQL text id ${request.sql_id} is already in use`);
        stream.sqls.set(request.sql_id, request.sql);
        return { type: "store_sql" };
      case "close_sql":
        stream.sqls.delete(request.sql_id);
        return { type: "close_sql" };
      case "close":
        closeStream(stream);
        return { type: "close" };
    }
  }

  async function pipeline(body: { baton?: string | null; requests?: Request[] }): Promise<unknown> {
    if (!body || typeof body !== "object" || !Array.isArray(body.requests)) throw new ProtocolError("The body must be {baton, requests: [...]}");
    for (const request of body.requests) {
      if (!SERVED_TYPES.has(request?.type)) {
        throw new ProtocolError(`Request ${JSON.stringify(request?.type)} is not supported by this server on Hrana 2`);
      }
    }
    const stream = typeof body.baton === "string" ? streamFor(body.baton) : openStream();
    stream.acquired = true;
    clearTimeout(stream.timer);
    const results: unknown[] = [];
    try {
      for (const request of body.requests) {
        served.set(request.type, (served.get(request.type) ?? 0) + 1);
        if (!streams.has(stream.id)) {
          results.push({ type: "error", error: { message: "The stream was closed", code: "STREAM_CLOSED" } });
          continue;
        }
        try {
          results.push({ type: "ok", response: await serve(stream, request) });
        } catch (error) {
          if (error instanceof ProtocolError) throw error;
          results.push({ type: "error", error: sqliteError(error) });
        }
      }
    } catch (error) {
      if (streams.has(stream.id)) closeStream(stream);
      throw error;
    } finally {
      stream.acquired = false;
    }
    if (!streams.has(stream.id)) return { baton: null, base_url: null, results };
    if (options.dropTransactionsBetweenRequests && stream.conn.inTransaction) stream.conn.exec("ROLLBACK");
    lockMayBeFree();
    stream.seq += 1;
    stream.timer = setTimeout(() => {
      expired.add(stream.id);
      closeStream(stream);
    }, idleMs);
    stream.timer.unref();
    return { baton: batonOf(stream), base_url: null, results };
  }

  const authorized = (header: string | undefined) => {
    if (options.authToken === undefined) return true;
    const expected = Buffer.from(`Bearer ${options.authToken}`);
    const got = Buffer.from(header ?? "");
    return got.length === expected.length && timingSafeEqual(got, expected);
  };

  let roundTrips = 0;
  const server = http.createServer((req, res) => {
    roundTrips += 1;
    const text = (status: number, message: string) => {
      res.writeHead(status, { "content-type": "text/plain" }).end(message);
    };
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (!authorized(req.headers.authorization)) return text(401, "Unauthorized: a valid auth token is required");
      const path = new URL(req.url ?? "/", "http://stand-in").pathname;
      if (req.method === "GET" && (path === "/" || path === "/health" || path === "/v2")) return text(200, "");
      if (req.method !== "POST" || path !== "/v2/pipeline") return text(404, `Not found: ${req.method} ${path}`);
      let body: { baton?: string | null; requests?: Request[] };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return text(400, "Could not deserialize JSON request body");
      }
      pipeline(body).then(
        (answer) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer)),
        (error: unknown) => {
          if ((error as { expired?: boolean }).expired) {
            res
              .writeHead(400, { "content-type": "application/json" })
              .end(JSON.stringify({ message: (error as Error).message, code: "STREAM_EXPIRED" }));
          } else if (error instanceof ProtocolError) {
            text(400, error.message);
          } else {
            text(500, `Internal error: ${(error as Error)?.message ?? String(error)}`);
          }
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    openStreams: () => streams.size,
    served,
    roundTrips: () => roundTrips,
    close: async () => {
      for (const stream of [...streams.values()]) closeStream(stream);
      for (const { conn } of pool.splice(0)) conn.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
