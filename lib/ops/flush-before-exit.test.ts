/**
 * The hook a graceful stop waits on, on a real HTTP server on 127.0.0.1: the work
 * runs after the last request in flight was answered and before the close
 * callback (Next exits in that callback), and a failing work still lets it close.
 * The hook changes http.Server for good, so this file runs in a process of its own
 * (vitest.config.ts): another file's servers would otherwise wait on its work.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { flushBeforeServerCloses } from "./flush-before-exit";

const steps: string[] = [];
let failNext = false;
flushBeforeServerCloses(async () => {
  steps.push("work started");
  await new Promise((resolve) => setImmediate(resolve));
  if (failNext) throw new Error("the write failed");
  steps.push("work done");
});

/** A server whose one request is answered only when the test says so. */
async function serverWithRequestInFlight() {
  let answer!: () => void;
  const holder: { server?: http.Server } = {};
  const arrived = new Promise<void>((resolve) => {
    const server = http.createServer((_request, response) => {
      answer = () => {
        steps.push("request answered");
        response.end("ok");
      };
      resolve();
    });
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      const request = http.get({ host: "127.0.0.1", port, agent: false }, (response) => response.resume());
      request.on("error", () => undefined);
      holder.server = server;
    });
  });
  await arrived;
  return { server: holder.server!, answer };
}

it("runs the work after the requests in flight and before the close callback", async () => {
  steps.length = 0;
  const { server, answer } = await serverWithRequestInFlight();
  const closed = new Promise<void>((resolve) =>
    server.close(() => {
      steps.push("closed");
      resolve();
    }),
  );
  steps.push("close asked");
  answer();
  await closed;
  expect(steps).toEqual(["close asked", "request answered", "work started", "work done", "closed"]);
});

it("closes even when the work fails, and says so in the log", async () => {
  steps.length = 0;
  failNext = true;
  const logged: string[] = [];
  const original = console.error;
  console.error = (line: string) => logged.push(line);
  try {
    const { server, answer } = await serverWithRequestInFlight();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    answer();
    await closed;
  } finally {
    console.error = original;
    failNext = false;
  }
  expect(steps).toEqual(["request answered", "work started"]);
  expect(logged).toEqual(["[shutdown] the write failed"]);
});
