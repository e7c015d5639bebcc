/**
 * The Memory page's server render, signed in as one person: the page of an agent
 * holding 2,000 facts next to the same page for an agent holding 20.
 */
import type { BenchData } from "./generate";

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

async function median(url: string, cookie: string, n: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const response = await fetch(url, { headers: { cookie }, redirect: "manual" });
    const html = await response.text();
    if (response.status !== 200 || !html.includes("</html>")) throw new Error(`${url} answered ${response.status}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function measurePage(url: string, data: BenchData, renders: number): Promise<PageResult> {
  const cookie = await signIn(url, data.page.email, data.page.password);
  const base = `${url}/w/${data.page.workspaceId}/agents`;
  await median(`${base}/${data.page.full}/memory`, cookie, 3);
  await median(`${base}/${data.page.small}/memory`, cookie, 3);
  const fullMs = await median(`${base}/${data.page.full}/memory`, cookie, renders);
  const smallMs = await median(`${base}/${data.page.small}/memory`, cookie, renders);
  return { renders, fullMs: Math.round(fullMs * 10) / 10, smallMs: Math.round(smallMs * 10) / 10, ratio: Math.round((fullMs / smallMs) * 100) / 100 };
}
