import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { authSecret, ConfigError, readConfig } from "./config";

describe("readConfig", () => {
  it("needs nothing: every setting has a working default", () => {
    const config = readConfig({});
    expect(config.DATABASE_URL).toBe("file:./data/mnemo.db");
    expect(config.PORT).toBe(3000);
    expect(config.MNEMO_DEMO).toBe(true);
    // X-Forwarded-For is believed only when the operator says proxies add it.
    expect(config.MNEMO_TRUSTED_PROXIES).toBe(0);
  });

  it.each([
    ["PORT", "abc", 'PORT="abc" is not valid: a port number from 1 to 65535.'],
    ["PORT", "70000", 'PORT="70000" is not valid: a port number from 1 to 65535.'],
    ["MNEMO_DEMO", "yes", 'MNEMO_DEMO="yes" is not valid: 1 (seed the demo workspace into an empty database) or 0 (never).'],
    ["DATABASE_URL", "postgres://db/mnemo", "DATABASE_URL=\"postgres://db/mnemo\" is not valid: a libSQL URL such as file:./data/mnemo.db, libsql://host or https://host."],
    ["MNEMO_DEMO_SCOUT_KEY", "mnemo_short", 'MNEMO_DEMO_SCOUT_KEY="mnemo_short" is not valid: an agent key: mnemo_ followed by at least 32 of A-Z a-z 0-9 _ -.'],
    ["AUTH_SECRET", "too-short", 'AUTH_SECRET="too-short" is not valid: at least 32 random characters (make one with: openssl rand -base64 33).'],
    ["MNEMO_TRUSTED_PROXIES", "-1", 'MNEMO_TRUSTED_PROXIES="-1" is not valid: how many proxies in front of Mnemo add the client\'s address to X-Forwarded-For, a whole number from 0 (none: the header is ignored) to 10.'],
    ["MNEMO_TRUSTED_PROXIES", "yes", 'MNEMO_TRUSTED_PROXIES="yes" is not valid: how many proxies in front of Mnemo add the client\'s address to X-Forwarded-For, a whole number from 0 (none: the header is ignored) to 10.'],
    ["MNEMO_QUESTION_CACHE_MB", "8", 'MNEMO_QUESTION_CACHE_MB="8" is not valid: megabytes of what ranking agents\' questions reads (postings, vocabularies, branches read whole, fact rows) each server process keeps, a whole number from 16 to 4096.'],
  ])("a wrong %s=%s stops with one line naming it and what it accepts", (name, value, message) => {
    expect(() => readConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => readConfig({ [name]: value })).toThrow(message);
  });

  it("refuses a generated secret in production without the demo, and says what to set", () => {
    expect(() => authSecret({ NODE_ENV: "production", MNEMO_DEMO: "0" })).toThrow(
      /^AUTH_SECRET is not valid: required when NODE_ENV=production and MNEMO_DEMO=0/,
    );
  });

  it.each([
    ["AUTH_URL", "not a url"],
    ["AUTH_URL", "ftp://mnemo.example.com"],
    ["LOG_LEVEL", "loud"],
    ["NEXT_SERVER_ACTIONS_ENCRYPTION_KEY", "c2hvcnQ="],
    ["NODE_ENV", "staging"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => readConfig({ [name]: value })).toThrow(new RegExp(`^${name}=`));
  });

  it("accepts a 32-byte actions key and an https AUTH_URL", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    expect(readConfig({ NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: key, AUTH_URL: "https://mnemo.example.com" })).toMatchObject({
      NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: key,
      AUTH_URL: "https://mnemo.example.com",
    });
  });

  it("names the new setting when an old name is still set, rather than ignoring it", () => {
    expect(() => readConfig({ MNEMO_RECALL_THREAD: "off" })).toThrow(
      'MNEMO_RECALL_THREAD="off" is not valid: renamed; set MNEMO_AGENT_THREAD instead (on (each server process',
    );
    expect(readConfig({ MNEMO_RECALL_THREAD: "" }).MNEMO_AGENT_THREAD).toBe("on");
  });

  it("treats an empty value as unset", () => {
    expect(readConfig({ PORT: "", MNEMO_DEMO: "" })).toMatchObject({ PORT: 3000, MNEMO_DEMO: true });
  });
});

describe("authSecret", () => {
  let dir: string;
  let cwd: string;
  beforeEach(() => {
    cwd = process.cwd();
    dir = mkdtempSync(path.join(tmpdir(), "mnemo-secret-"));
    process.chdir(dir);
  });
  afterEach(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it("uses AUTH_SECRET when it is set, and writes nothing", () => {
    const secret = "x".repeat(40);
    expect(authSecret({ AUTH_SECRET: secret })).toBe(secret);
    expect(() => statSync(path.join(dir, "data", "auth-secret"))).toThrow();
  });

  it("otherwise makes one once, keeps it under ./data readable only by its owner, and reuses it", () => {
    const first = authSecret({});
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, "data", "auth-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(authSecret({})).toBe(first);
  });
});
