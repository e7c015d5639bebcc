/**
 * /you/data, "Your data": everything Mnemo keeps about the signed-in person
 * (lib/privacy/about-person.ts), counts first and then the lists, with the
 * download, erasure, account deletion and "Sign out everywhere". Only ever the
 * person's own: nothing in the URL names anyone.
 */
import type { Metadata } from "next";
import { getDb } from "@/db";
import { AboutLists, CountsSummary, CountsTable } from "@/components/you/about-lists";
import { DeleteAccount } from "@/components/you/delete-account";
import { ErasePersonFacts } from "@/components/you/erase-person-facts";
import { SignOutEverywhere } from "@/components/you/sign-out-everywhere";
import { requireUser } from "@/lib/auth/session";
import { aboutPerson } from "@/lib/privacy/about-person";
import { ABOUT_LISTS, type AboutList } from "@/lib/privacy/types";
import { deleteAccountAction, eraseMyFactsAction, signOutEverywhereAction } from "./actions";

export const metadata: Metadata = { title: "Your data" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A list's page from the URL (`?kept=2`); anything else is the first page. */
function pageParam(value: string | string[] | undefined): number | undefined {
  const n = typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  return n >= 1 ? n : undefined;
}

export default async function YourDataPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const params = await searchParams;
  const pages = Object.fromEntries(ABOUT_LISTS.map((list) => [list, pageParam(params[list])])) as Record<AboutList, number | undefined>;
  const about = await aboutPerson(getDb(), user.id, { pages });
  const hrefFor = (list: AboutList, page: number) => {
    const query = new URLSearchParams();
    for (const other of ABOUT_LISTS) {
      const at = other === list ? page : about.lists[other].page;
      if (at > 1) query.set(other, String(at));
    }
    const search = query.toString();
    return `/you/data${search ? `?${search}` : ""}#list-${list}`;
  };

  return (
    <main className="flex flex-col gap-10">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Your data</h1>
        <p className="text-sm text-slate-600">
          Everything Mnemo keeps about you, {user.name}, in every workspace you are in and every agent there — as you
          are allowed to see it. Nobody else sees this page, owners included.
        </p>
      </div>

      <section aria-labelledby="counts-heading" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="counts-heading" className="text-lg font-semibold">
            Everything about you
          </h2>
          {/* A plain link: the route handler answers with a file to save. */}
          <a href="/you/data/download" download className="text-sm font-medium text-brand-700 hover:underline">
            Download as JSON
          </a>
        </div>
        <CountsSummary counts={about.counts} />
        <CountsTable workspaces={about.workspaces} />
      </section>

      <section aria-label="The lists" className="flex flex-col gap-4">
        <AboutLists lists={about.lists} hrefFor={hrefFor} />
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <ErasePersonFacts workspaces={about.workspaces.map((w) => ({ id: w.id, name: w.name }))} action={eraseMyFactsAction} />
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <SignOutEverywhere action={signOutEverywhereAction} />
      </section>

      <section className="rounded-lg border border-red-200 bg-white p-4">
        <DeleteAccount action={deleteAccountAction} />
      </section>
    </main>
  );
}
