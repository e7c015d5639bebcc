/** The demo of db/seed.ts as the end-to-end tests see it. The keys are documented demo values, not secrets. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const SCOUT_KEY = "mnemo_e2e_scout_demo_key_not_a_secret_0001";
export const ECHO_KEY = "mnemo_e2e_echo_demo_key_not_a_secret_00001";
export const DEMO_PASSWORD = "demo-password";

export const PEOPLE = {
  olivia: { email: "olivia@acme.test", name: "Olivia Owen", workspaces: ["Acme"], agents: ["Scout"] },
  max: { email: "max@acme.test", name: "Max Mills", workspaces: ["Acme"], agents: ["Scout"] },
  ana: { email: "ana@acme.test", name: "Ana Alves", workspaces: ["Acme"], agents: ["Scout"] },
  gus: { email: "gus@acme.test", name: "Gus Gray", workspaces: ["Acme"], agents: ["Scout"] },
  gina: { email: "gina@globex.test", name: "Gina Grant", workspaces: ["Globex"], agents: ["Echo"] },
} as const;

export type PersonId = keyof typeof PEOPLE;

/** Where each person's signed-in browser state is kept between the setup and the specs. */
export function storageStateOf(person: PersonId): string {
  return `playwright/.auth/${person}.json`;
}

/** The demo's facts by a short name: scout's eight and echo's one. */
export const DEMO_FACTS = {
  releases: "Releases go out on Thursdays.",
  sso: "The Enterprise plan includes SSO.",
  refunds: "Refunds over $500 need a manager's approval.",
  budget: "The Q3 budget freeze lifts in October.",
  pairing: "Max and Ana are pairing on the billing migration.",
  anaPrefers: "Ana prefers replies in Portuguese.",
  maxOnCall: "Max is on call the first week of each month.",
  gusNew: "Gus is new; explain acronyms.",
  globex: "Globex ships from Springfield.",
} as const;
