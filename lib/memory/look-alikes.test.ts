/**
 * Look-alikes measured on labelled pairs: edits, typos, changed values, reorderings and
 * small paraphrases of one fact must fire; facts on the same topic, about the same person,
 * or about the same product that say something else must not. Precision and recall are
 * asserted per batch (BENCHMARKS.md, "Look-alikes: how often they fire", reports them).
 * Plus the contract: duplicates never come back, at most three, best first, never a throw.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dedupeKey } from "./fact-text";
import { LOOK_ALIKE_THRESHOLD, LookAlikeIndex, lookAlikeScore, MAX_LOOK_ALIKES, similarFacts } from "./look-alikes";
import { messyChar, TEXT } from "./test-facts";

/** [one fact, another, look-alike?, what differs] */
type Pair = [string, string, boolean, string];

/** Written first, before the scoring was tried; the threshold was chosen on these. */
const FIRST: Pair[] = [
  // look-alikes: changed values
  ["Releases go out on Thursdays.", "Releases go out on Wednesdays.", true, "day"],
  ["Refunds over $500 need approval.", "Refunds over $50 need approval.", true, "number"],
  ["Standup is at 9:30.", "Standup is at 10:00.", true, "time"],
  ["The code freeze before the holidays starts on 15 December.", "The code freeze before the holidays starts on 18 December.", true, "date"],
  ["Quotes are valid for 30 days.", "Quotes are valid for 45 days.", true, "number"],
  ["Free trials last 14 days and include Relay.", "Free trials last 30 days and include Relay.", true, "number"],
  ["Discounts above 15% need Priya's approval.", "Discounts above 20% need Priya's approval.", true, "percent"],
  ["Green Valley Dairy delivers milk on Mondays and Thursdays.", "Green Valley Dairy delivers milk on Tuesdays and Fridays.", true, "days"],
  ["The company all-hands is on the first Monday of each month at 16:00.", "The company all-hands is on the first Tuesday of each month at 15:00.", true, "day+time"],
  ["The Postgres cluster runs version 15; the upgrade to 16 is scheduled for January.", "The Postgres cluster runs version 15; the upgrade to 16 is scheduled for March.", true, "month"],
  ["Beacon Team lists at €25 per user per month, billed annually.", "Beacon Team lists at €29 per user per month, billed annually.", true, "price"],
  ["On-call rotates weekly on Monday at 10:00.", "On-call rotates weekly on Tuesday at 09:00.", true, "day+time"],
  ["Every pull request needs one approving review and green CI before merge.", "Every pull request needs two approving reviews and green CI before merge.", true, "number word"],
  ["The café opens at 7:00 on weekdays.", "The café opens at 7:30 on weekdays.", true, "time"],
  ["Oat and almond milk cost 50 cents extra.", "Oat and almond milk cost 60 cents extra.", true, "price"],
  // look-alikes: edits, additions, negations
  ["Releases go out on Thursdays.", "Releases go out on Thursdays after the release review.", true, "addition"],
  ["Refunds over $500 need approval.", "Refunds over $500 need approval from Lena.", true, "addition"],
  ["Staff get one free drink per shift.", "Staff get one free drink per shift and 30% off beans.", true, "addition"],
  ["Refunds over $500 need approval.", "Refunds over $500 do not need approval.", true, "negation"],
  ["The customer wifi is called Harbor-Guest and is open.", "The customer wifi is called Harbor-Guest and needs a password.", true, "edit"],
  ["Lena Kowalski leads the support team.", "Lena Kowalski leads the support and success teams.", true, "edit"],
  ["Tom Becker is the engineering lead; bugs marked P1 go straight to him.", "Tom Becker is the engineering lead; P1 bugs go to him directly.", true, "edit"],
  ["Ana prefers replies in Portuguese.", "Ana prefers her replies in Spanish.", true, "edit"],
  ["The public status page lives at status.lumenlabs.io.", "The public status page now lives at status.lumen.io.", true, "edit"],
  // look-alikes: typos
  ["Releases go out on Thursdays.", "Relases go out on Thursdys.", true, "typo"],
  ["Refunds over $500 need approval.", "Refunds over $500 need aproval.", true, "typo"],
  ["Lena Kowalski leads the support team.", "Lena Kowalsky leads the suport team.", true, "typo"],
  ["Feature flags are managed in LaunchDarkly.", "Feature flags are managed in Launch Darkly.", true, "split word"],
  ["The engineering handbook is in Notion.", "The engineering handbok is in Notoin.", true, "typo"],
  ["Staging is reset from an anonymised production snapshot every Sunday night.", "Staging is reset from an anonymized production snapshot every Sunday night.", true, "spelling"],
  ["Our house espresso blend, Tidewater, is 60% Brazil and 40% Ethiopia.", "Our house espresso blend Tidewatter is 60% Brazil and 40% Ethiopia", true, "typo"],
  // look-alikes: reorderings and small paraphrases
  ["Releases go out on Thursdays.", "On Thursdays, releases go out.", true, "reorder"],
  ["Refunds over $500 need approval.", "Approval is needed for refunds over $500.", true, "reorder"],
  ["Starter plan customers get email support only.", "Only email support for Starter plan customers.", true, "reorder"],
  ["Omar Farouk leads SRE and owns the Terraform repository.", "Omar Farouk owns the Terraform repository and leads SRE.", true, "reorder"],
  ["The roaster runs on Tuesdays and Fridays before opening.", "Before opening on Tuesdays and Fridays the roaster runs.", true, "reorder"],
  ["Sales uses HubSpot as the CRM, and every call is logged there.", "Sales uses HubSpot as its CRM; every call gets logged there.", true, "paraphrase"],
  ["Database migrations must stay backwards compatible for one release.", "Database migrations have to stay backward compatible for one release.", true, "paraphrase"],
  ["Nonprofits get 30% off the Team plan.", "Nonprofits receive 30% off the Team plan.", true, "paraphrase"],
  ["Tips are split equally between everyone on shift and paid out every two weeks.", "Tips are split equally among everyone on shift and paid every two weeks.", true, "paraphrase"],
  ["Help center articles are written in English, German and Portuguese.", "Help center articles are available in English, German and Portuguese.", true, "paraphrase"],
  // not look-alikes: same topic, different fact
  ["Releases go out on Thursdays.", "Release notes are written by the product team.", false, "topic"],
  ["Refunds over $500 need approval.", "Refunds are paid back within 5 business days.", false, "topic"],
  ["Standup is at 9:30.", "Standup is held in the Lisbon meeting room.", false, "topic"],
  ["Quotes are valid for 30 days.", "Quotes are made in HubSpot from the deal page.", false, "topic"],
  ["Free trials last 14 days and include Relay.", "Free trials can be extended once by a sales rep.", false, "topic"],
  ["The café opens at 7:00 on weekdays and at 8:00 on weekends.", "We close at 18:00 every day except Sunday, when we close at 15:00.", false, "topic"],
  ["Green Valley Dairy delivers milk on Mondays and Thursdays.", "The roaster runs on Tuesdays and Fridays before opening.", false, "days"],
  ["The Postgres cluster runs version 15.", "Postgres backups are kept for 30 days in S3.", false, "topic"],
  ["On-call rotates weekly on Monday at 10:00.", "The on-call engineer gets a day off after a night page.", false, "topic"],
  ["Every pull request needs one approving review.", "Pull requests are squashed when merged.", false, "topic"],
  ["Beacon Team lists at €25 per user per month.", "Beacon Enterprise starts at €40,000 a year.", false, "product"],
  ["Starter plan customers get email support only.", "Chat support starts with the Team plan.", false, "topic"],
  ["Staff get one free drink per shift.", "Staff must wear an apron behind the counter.", false, "topic"],
  ["Oat and almond milk cost 50 cents extra.", "We buy oat milk from Minor Figures.", false, "topic"],
  ["Discounts above 15% need Priya's approval.", "Discounts are never given on the Starter plan.", false, "topic"],
  ["Feature flags are managed in LaunchDarkly.", "Flags older than 90 days must be cleaned up.", false, "topic"],
  ["Support hours are 8:00 to 18:00 CET on weekdays.", "Weekends are covered by the on-call rota only.", false, "topic"],
  ["The code freeze before the holidays starts on 15 December.", "The holiday party is on 19 December.", false, "date"],
  // not look-alikes: sharing a name
  ["Lena Kowalski leads the support team.", "Lena Kowalski is on holiday from 4 to 15 August.", false, "name"],
  ["Priya Raman is the CEO and signs off on any contract exception.", "Priya Raman prefers short written updates.", false, "name"],
  ["Tom Becker is the engineering lead.", "Tom Becker works from Kraków on Fridays.", false, "name"],
  ["Omar Farouk leads SRE.", "Omar Farouk is out on parental leave until March.", false, "name"],
  ["Hannah Schmidt is the security lead.", "Hannah Schmidt runs the quarterly phishing drill.", false, "name"],
  ["Ben approves rota changes.", "Ben takes Saturdays off.", false, "name"],
  ["Ana prefers replies in Portuguese.", "Ana is the account manager for Pinecrest Hotels.", false, "name"],
  ["Marco Rossi covers Southern Europe.", "Marco Rossi closed the Tessera Schools deal.", false, "name"],
  ["Lena is on holiday from 4 to 15 August.", "Tom is on holiday from 1 to 10 July.", false, "template, other person"],
  // not look-alikes: sharing a product or customer
  ["Relay syncs data from Salesforce, HubSpot and Postgres into Beacon.", "Relay is included in every free trial.", false, "product"],
  ["Beacon's backend is written in Go.", "Beacon keeps customer data for 13 months on Team.", false, "product"],
  ["Beacon Enterprise comes with a named customer success manager.", "Beacon Enterprise pays by invoice only.", false, "product"],
  ["Halvorsen Freight renews in March.", "Halvorsen Freight asked for SSO on the Team plan.", false, "customer"],
  ["Pinecrest Hotels has 40 seats on Beacon Team.", "Pinecrest Hotels agreed to be a reference.", false, "customer"],
  ["Tidewater is 60% Brazil and 40% Ethiopia.", "Tidewater is sold in 250 g and 1 kg bags.", false, "product"],
  ["The Square card reader charges the card on tap.", "If the Square card reader fails, take cash.", false, "product"],
  ["The main repository is lumen/beacon on GitHub.", "Beacon's web front end is TypeScript with React.", false, "product"],
  ["The status page lives at status.lumenlabs.io.", "Incidents are posted on the status page within 15 minutes.", false, "product"],
  ["Relay lives in lumen/relay.", "Yuki Tanaka owns the Relay connector roadmap.", false, "product"],
];

/**
 * Written after the first batch scored perfectly, to be harder: sentences built on one
 * template with another subject, and edits words alone barely see. Scored blind first
 * (precision 0.82, recall 1.00); then a time became one number and a changed value
 * counts only as far as the rest matches, which moved them to 0.94 / 0.94.
 */
const HARDER: Pair[] = [
  // look-alikes that words find hard
  ["Standup is at 9:30.", "Daily standup starts at 9:30 sharp.", true, "paraphrase"],
  ["The offices are in Lisbon and Kraków.", "Our offices: Lisbon, Krakow.", true, "diacritics"],
  ["Priya signs off on any contract exception.", "Any contract exception needs Priya's sign-off.", true, "paraphrase"],
  ["Invoices go to billing@lumenlabs.io.", "Invoices go to accounts@lumenlabs.io.", true, "changed address"],
  ["The Wi-Fi password is on the fridge.", "The wifi password is on the fridge.", true, "hyphen"],
  ["Support is closed on public holidays.", "Support is open on public holidays.", true, "antonym"],
  ["Deploys freeze on Friday afternoons.", "Deploys are frozen on Friday afternoons.", true, "inflection"],
  ["Max is the on-call engineer this week.", "Gus is the on-call engineer this week.", true, "changed person"],
  ["Beacon Enterprise starts at €40,000 a year.", "Beacon Enterprise starts at €45k a year.", true, "changed number format"],
  ["The grinder burrs are replaced every six months.", "Grinder burrs get replaced every 6 months.", true, "number word vs digit"],
  ["Customers on the Team plan get chat support.", "Team plan customers get chat support.", true, "reorder"],
  ["The standard contract runs 12 months.", "The standard contract runs 24 months; shorter terms need finance.", true, "change+addition"],
  ["Rota changes must be agreed with Ben by Wednesday.", "Rota changes must be agreed with Nadia by Thursday.", true, "person+day"],
  ["We close at 18:00 every day except Sunday.", "We close at 17:00 every day except Sunday.", true, "time"],
  ["The pitch deck is in Google Drive under Sales / Decks / 2026.", "The pitch deck is in Google Drive under Sales / Decks / 2027.", true, "year"],
  ["Sam handles first-line tickets in the morning.", "Sam handles first line tickets in the mornings.", true, "hyphen+plural"],
  ["Seasonal drinks change on the first of March, June, September and December.", "Seasonal drinks change on the first of April, July, October and January.", true, "months"],
  ["PagerDuty holds the on-call schedule.", "The on-call schedule is held in PagerDuty.", true, "passive"],
  // not look-alikes that share many words
  ["Ana prefers replies in Portuguese.", "Max prefers replies in English.", false, "template, other person"],
  ["Starter plan customers get email support only.", "Enterprise plan customers get phone support.", false, "template, other plan"],
  ["The café opens at 7:00 on weekdays.", "The café closes at 18:00 on weekdays.", false, "opens vs closes"],
  ["Green Valley Dairy delivers milk on Mondays.", "Northside Bakery delivers pastries on Mondays.", false, "other supplier"],
  ["Marco Rossi covers Southern Europe.", "Diego Alvarez covers Latin America.", false, "template"],
  ["Halvorsen Freight renews in March.", "Pinecrest Hotels renews in September.", false, "other customer"],
  ["Beacon keeps customer data for 13 months on Team.", "Relay keeps sync logs for 7 days.", false, "other product"],
  ["Lena Kowalski leads the support team.", "Omar Farouk leads the SRE team.", false, "template, other team"],
  ["Tom Becker is the engineering lead.", "Hannah Schmidt is the security lead.", false, "template"],
  ["Refunds over $500 need approval from Lena.", "Discounts over 15% need approval from Priya.", false, "template, other rule"],
  ["The support team meets on Tuesdays at 11:00.", "The sales team meets on Mondays at 9:00.", false, "template, other team"],
  ["Oat milk costs 50 cents extra.", "Syrups cost 40 cents extra.", false, "template, other item"],
];

function measure(pairs: Pair[]) {
  const verdicts = pairs.map(([a, b, alike]) => ({ alike, fired: lookAlikeScore(a, b) >= LOOK_ALIKE_THRESHOLD }));
  const truePositives = verdicts.filter((v) => v.alike && v.fired).length;
  const fired = verdicts.filter((v) => v.fired).length;
  const alike = verdicts.filter((v) => v.alike).length;
  return { precision: truePositives / fired, recall: truePositives / alike, alike, notAlike: pairs.length - alike };
}

describe("look-alikes on labelled pairs", () => {
  it("has enough pairs of each kind to mean something", () => {
    const all = measure([...FIRST, ...HARDER]);
    expect(all.alike).toBeGreaterThanOrEqual(45);
    expect(all.notAlike).toBeGreaterThanOrEqual(45);
    for (const [a, b] of [...FIRST, ...HARDER]) expect(dedupeKey(a)).not.toBe(dedupeKey(b));
  });

  it("separates the first batch: precision and recall at least 95 %", () => {
    const { precision, recall } = measure(FIRST);
    expect(precision).toBeGreaterThanOrEqual(0.95);
    expect(recall).toBeGreaterThanOrEqual(0.95);
  });

  it("holds on the harder batch: precision and recall at least 90 %", () => {
    const { precision, recall } = measure(HARDER);
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });

  it("fires on a changed number or weekday, the likely replacements", () => {
    expect(similarFacts("Releases go out on Thursdays.", [{ id: "a", body: "Releases go out on Wednesdays." }])).toHaveLength(1);
    expect(similarFacts("Refunds over $500 need approval.", [{ id: "a", body: "Refunds over $50 need approval." }])).toHaveLength(1);
  });
});

describe("similarFacts", () => {
  const others = [
    { id: "wed", body: "Releases go out on Wednesdays." },
    { id: "same", body: "releases go out on thursdays" },
    { id: "typo", body: "Relases go out on Thursdays." },
    { id: "review", body: "Releases go out on Thursdays after the release review." },
    { id: "notes", body: "Release notes are written by the product team." },
    { id: "fri", body: "Releases go out on Fridays." },
  ];

  it("gives at most three, best first, with scores in [0, 1], never the same fact again", () => {
    const found = similarFacts("Releases go out on Thursdays.", others);
    expect(found.length).toBe(MAX_LOOK_ALIKES);
    expect(found.map((f) => f.id)).not.toContain("same");
    expect(found.map((f) => f.id)).not.toContain("notes");
    for (let i = 1; i < found.length; i++) expect(found[i - 1].score).toBeGreaterThanOrEqual(found[i].score);
    expect(found[0].id).toBe("typo");
    for (const f of found) expect(f.body).toBe(others.find((o) => o.id === f.id)?.body);
  });

  it("takes a threshold and a limit", () => {
    expect(similarFacts("Releases go out on Thursdays.", others, { limit: 10 }).map((f) => f.id).sort()).toEqual(["fri", "review", "typo", "wed"]);
    expect(similarFacts("Releases go out on Thursdays.", others, { limit: 0 })).toEqual([]);
    expect(similarFacts("Releases go out on Thursdays.", others, { threshold: 0.9 }).map((f) => f.id)).toEqual(["typo"]);
  });

  it("is fine with nothing to compare", () => {
    expect(similarFacts("", [])).toEqual([]);
    expect(similarFacts("Releases go out on Thursdays.", [])).toEqual([]);
    expect(similarFacts("", [{ id: "a", body: "" }, { id: "b", body: "Releases go out." }])).toEqual([]);
    expect(similarFacts("the of and", [{ id: "a", body: "to a the" }])).toEqual([]);
  });

  it("answers the same through an index built once", () => {
    const index = new LookAlikeIndex(others);
    for (const { body } of others) expect(index.similarTo(body)).toEqual(similarFacts(body, others));
  });

  it("takes each fact's dedupe key as its row keeps it: the key, not the text, says it is the same fact", () => {
    const keyed = others.map((other) => ({ ...other, key: dedupeKey(other.body) }));
    expect(new LookAlikeIndex(keyed).similarTo("Releases go out on Thursdays.")).toEqual(similarFacts("Releases go out on Thursdays.", others));
    // A row whose key is the new text's is the fact itself, however its text reads.
    const twin = [{ id: "typo", body: "Relases go out on Thursdays.", key: dedupeKey("Releases go out on Thursdays.") }];
    expect(new LookAlikeIndex(twin).similarTo("Releases go out on Thursdays.")).toEqual([]);
    expect(similarFacts("Releases go out on Thursdays.", [{ id: "typo", body: "Relases go out on Thursdays." }]).map((f) => f.id)).toEqual(["typo"]);
  });
});

describe("look-alikes on any text", () => {
  const anyText = fc.oneof(
    fc.string({ unit: "binary", maxLength: 600 }),
    fc.string({ unit: "grapheme", maxLength: 300 }),
    fc.string({ unit: messyChar, maxLength: 600 }),
    fc.string({ unit: fc.constantFrom("a", "b", "1", ":", " ", "not", "monday", "ß", "\u0130", "Ǆ"), maxLength: 200 }),
  );
  const others = fc.array(fc.record({ id: fc.string({ maxLength: 5 }), body: anyText }), { maxLength: 8 });

  it("never throws, scores in [0, 1], at most three, best first", () => {
    fc.assert(
      fc.property(anyText, others, (body, list) => {
        const found = similarFacts(body, list);
        expect(found.length).toBeLessThanOrEqual(MAX_LOOK_ALIKES);
        for (const f of found) {
          expect(f.score).toBeGreaterThanOrEqual(LOOK_ALIKE_THRESHOLD);
          expect(f.score).toBeLessThanOrEqual(1);
        }
        for (let i = 1; i < found.length; i++) expect(found[i - 1].score).toBeGreaterThanOrEqual(found[i].score);
      }),
      TEXT,
    );
  });

  it("never returns a fact dedupe would call the same, however it is cased or ended", () => {
    const variant = fc.tuple(anyText, fc.constantFrom((t: string) => t.toUpperCase(), (t: string) => t.toLowerCase(), (t: string) => `${t}.`, (t: string) => ` ${t}  !`));
    fc.assert(
      fc.property(variant, others, ([body, change], list) => {
        const same = change(body);
        fc.pre(dedupeKey(same) === dedupeKey(body));
        const found = similarFacts(body, [...list, { id: "same", body: same }, { id: "itself", body }], { threshold: 0, limit: 20 });
        for (const f of found) expect(dedupeKey(f.body)).not.toBe(dedupeKey(body));
      }),
      TEXT,
    );
  });
});
