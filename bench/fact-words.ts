/**
 * The words the benchmark's facts and questions are made of, shared so the
 * questions ask about what the facts say. Facts are built from a subject and a
 * detail with names, days, tools and numbers in them: a vocabulary of a few
 * hundred words per agent, like a team's memory, rather than a handful of
 * repeated sentences (which would make every word index tiny and every score a tie).
 */

/** What a fact is about, and the words a question would use for it. */
export const SUBJECTS = [
  ["Deploys", "deploys"], ["The staging database", "staging database"], ["Invoices", "invoices"],
  ["The design review", "design review"], ["Customer escalations", "customer escalations"],
  ["The quarterly plan", "quarterly plan"], ["On-call handover", "on-call handover"], ["Standup", "standup"],
  ["Refunds", "refunds"], ["The release checklist", "release checklist"], ["Security reviews", "security reviews"],
  ["Expense reports", "expense reports"], ["The mobile build", "mobile build"], ["Support tickets", "support tickets"],
  ["The analytics dashboard", "analytics dashboard"], ["Interview loops", "interview loops"],
  ["Vendor contracts", "vendor contracts"], ["Database backups", "database backups"], ["Feature flags", "feature flags"],
  ["Incident reports", "incident reports"], ["Onboarding", "onboarding"], ["API rate limits", "rate limits"],
  ["Code reviews", "code reviews"], ["The holiday calendar", "holiday calendar"], ["Payroll", "payroll"],
  ["The customer newsletter", "newsletter"], ["Load tests", "load tests"], ["The sales pipeline", "sales pipeline"],
  ["Laptop requests", "laptop requests"], ["The brand guidelines", "brand guidelines"], ["Team offsites", "offsite"],
  ["Pricing changes", "pricing changes"], ["The data warehouse", "data warehouse"], ["Translations", "translations"],
  ["Bug triage", "bug triage"], ["The roadmap", "roadmap"], ["Password resets", "password resets"],
  ["Status page updates", "status page"], ["Contract renewals", "renewals"], ["The shared inbox", "shared inbox"],
] as const;

export const PEOPLE = [
  "Ana", "Max", "Olivia", "Gus", "Priya", "Chen", "Fatima", "Lars", "Noor", "Diego", "Yuki", "Tomasz",
  "Amara", "Hugo", "Leila", "Ravi", "Sofia", "Kwame", "Ingrid", "Mateo",
];
export const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
export const MONTHS = ["January", "March", "April", "June", "September", "October", "November", "December"];
export const TOOLS = ["Jira", "Linear", "Notion", "Confluence", "GitHub", "Figma", "Slack", "Zendesk", "Stripe", "Grafana", "Sentry", "Airtable"];
const FLOORS = ["second", "third", "fourth", "fifth"];

/** The details a fact gives, each with the words a question about it would use. */
type Detail = { text: (pick: (list: readonly string[]) => string, n: number) => string; ask: string };
export const DETAILS: Detail[] = [
  { text: (p) => `go out on ${p(DAYS)}s after the review`, ask: "when do {s} go out" },
  { text: (p) => `are reset every ${p(DAYS)} night`, ask: "when are {s} reset" },
  { text: (p, n) => `need ${p(PEOPLE)}'s approval above $${(n % 20) * 250 + 250}`, ask: "who approves {s}" },
  { text: (p) => `happen in the big room on the ${p(FLOORS)} floor`, ask: "where do {s} happen" },
  { text: (p) => `are owned by ${p(PEOPLE)} since ${p(MONTHS)}`, ask: "who owns {s}" },
  { text: (p) => `live in ${p(TOOLS)} under the ${p(MONTHS)} folder`, ask: "where can I find the {s}" },
  { text: (p, n) => `hand over at ${(n % 12) + 1} o'clock on ${p(DAYS)}`, ask: "what time is the {s}" },
  { text: (_, n) => `must be filed within ${(n % 9) + 2} working days`, ask: "how long do I have to file {s}" },
  { text: (p) => `moved from ${p(TOOLS)} to ${p(TOOLS)} in ${p(MONTHS)}`, ask: "which tool do we use for {s}" },
  { text: (p) => `are paused during the ${p(MONTHS)} freeze`, ask: "are {s} paused in the freeze" },
  { text: (p) => `page ${p(PEOPLE)} first, then the on-call lead`, ask: "who gets paged for {s}" },
  { text: (_, n) => `take about ${(n % 50) + 10} minutes from start to finish`, ask: "how long do {s} take" },
  { text: (p) => `are announced in the ${p(TOOLS)} channel every ${p(DAYS)}`, ask: "where are {s} announced" },
  { text: (p) => `were changed after the ${p(MONTHS)} incident; ask ${p(PEOPLE)} before touching them`, ask: "what changed about {s} after the incident" },
  { text: (p, n) => `cost roughly $${(n % 40) * 100 + 900} a month, billed to ${p(PEOPLE)}'s team`, ask: "how much do {s} cost" },
  { text: (p) => `should be written in plain English, reviewed by ${p(PEOPLE)}`, ask: "who reviews {s}" },
];

/** A small deterministic generator, so the same size always makes the same data and questions. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

/** The text of fact number `seq`: a subject, a detail, and a reference that keeps it unique in its scope. */
export function factBody(seq: number): string {
  const random = seeded(seq * 2654435761);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const [subject] = pick(SUBJECTS);
  const detail = pick(DETAILS);
  return `${subject} ${detail.text(pick, Math.floor(random() * 1000))} (ref ${seq}).`;
}
