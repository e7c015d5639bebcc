/**
 * The Memory page's server render, signed in as one person: the page of an agent
 * holding 2,000 facts next to the same page for an agent holding 20.
 */
import type { BenchData } from "./generate";
import { median } from "./median";

export type PageResult = { renders: number; fullMs: number; smallMs: number; ratio: number };

function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((c) => c.split(";")[0]);
}

/** Signs in through Auth.js's own endpoints and returns the Cookie header. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const response = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: url }),
  });
  const session = cookiesOf(response).find((c) => c.includes("session-token"));
  if (!session) throw new Error(`Signing in as ${email} failed (${response.status})`);
  return [...jar, session].join("; ");
}

/** One server render of `url`, in ms, checked to be a whole page. */
async function render(url: string, cookie: string): Promise<number> {
  const t = performance.now();
  const response = await fetch(url, { headers: { cookie }, redirect: "manual" });
  const html = await response.text();
  if (response.status !== 200 || !html.includes("</html>")) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - t;
}

/** The two pages rendered in turn, so whatever else runs on the machine weighs on both alike; the median of each. */
export async function measurePage(url: string, data: BenchData, renders: number): Promise<PageResult> {
  const cookie = await signIn(url, data.page.email, data.page.password);
  const base = `${url}/w/${data.page.workspaceId}/agents`;
  const full = `${base}/${data.page.full}/memory`;
  const small = `${base}/${data.page.small}/memory`;
  const fullTimes: number[] = [];
  const smallTimes: number[] = [];
  for (let i = 0; i < 3; i++) {
    await render(full, cookie);
    await render(small, cookie);
  }
  for (let i = 0; i < renders; i++) {
    fullTimes.push(await render(full, cookie));
    smallTimes.push(await render(small, cookie));
  }
  const fullMs = median(fullTimes);
  const smallMs = median(smallTimes);
  return { renders, fullMs: Math.round(fullMs * 10) / 10, smallMs: Math.round(smallMs * 10) / 10, ratio: Math.round((fullMs / smallMs) * 100) / 100 };
}
