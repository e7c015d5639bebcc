/** The demo of db/seed.ts as the end-to-end tests see it. The keys are documented demo values, not secrets. */
import { DEMO_PEOPLE, DEMO_WORKSPACES } from "../db/seed";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const SCOUT_KEY = "mnemo_e2e_scout_demo_key_not_a_secret_0001";
export const ECHO_KEY = "mnemo_e2e_echo_demo_key_not_a_secret_00001";
export { DEMO_FACTS, DEMO_PASSWORD } from "../db/seed";

/** Each demo person with what their home page lists: their workspace and its agent, by the names shown. */
export const PEOPLE = Object.fromEntries(
  DEMO_PEOPLE.map((person) => {
    const workspace = DEMO_WORKSPACES.find((w) => w.id === person.workspace)!;
    return [person.id, { email: person.email, name: person.name, workspaces: [workspace.name], agents: [workspace.agent.name] }];
  }),
) as Record<(typeof DEMO_PEOPLE)[number]["id"], { email: string; name: string; workspaces: string[]; agents: string[] }>;

export type PersonId = keyof typeof PEOPLE;

/** Where each person's signed-in browser state is kept between the setup and the specs. */
export function storageStateOf(person: PersonId): string {
  return `playwright/.auth/${person}.json`;
}

/** Text as a pattern that matches it literally (a fact's body inside a longer line). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
