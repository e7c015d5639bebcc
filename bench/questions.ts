/**
 * Questions for recall with `q`, as an agent would pass its user's message: about
 * what the generated facts say (bench/fact-words.ts), phrased variously, some with a
 * typo, some about nothing any fact holds. A large pool drawn at random per request,
 * so the recall cache (keyed on agent, place and question) almost never answers;
 * `repeats` counts the requests that asked the same thing in the same place again,
 * the most the cache could have answered.
 */
import { DAYS, DETAILS, MONTHS, PEOPLE, SUBJECTS, TOOLS, seeded } from "./fact-words";

const OPENERS = ["", "", "", "hey, ", "quick question: ", "can you remind me ", "do you know ", "sorry, "];
const CLOSERS = ["?", "?", "", " again?", " these days?", " now?", " this week?"];
const ELSEWHERE = [
  "how do I configure the kubernetes ingress controller",
  "what's the wifi password for the guest network",
  "is there a parking spot for visitors",
  "which font does the legal team use for contracts",
  "can we expense a standing desk",
];

/** One word changed as people mistype: two letters swapped, or one dropped. */
function typo(text: string, random: () => number): string {
  const words = text.split(" ");
  const long = words.map((w, i) => [w, i] as const).filter(([w]) => /^[a-z]{5,}$/.test(w));
  if (!long.length) return text;
  const [word, at] = long[Math.floor(random() * long.length)];
  const i = 1 + Math.floor(random() * (word.length - 2));
  words[at] = random() < 0.5 ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : word.slice(0, i) + word.slice(i + 1);
  return words.join(" ");
}

/** `count` questions: 80 % about a subject and a detail, of them 15 % with a typo, and some naming a person, day, month or tool; the rest about nothing here. */
export function questionPool(count: number, seed = 14): string[] {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const pool: string[] = [];
  for (let i = 0; i < count; i++) {
    let q: string;
    if (random() < 0.8) {
      const [, words] = pick(SUBJECTS);
      q = pick(DETAILS).ask.replace("{s}", words);
      const extra = random();
      if (extra < 0.15) q += ` according to ${pick(PEOPLE)}`;
      else if (extra < 0.25) q += ` on ${pick(DAYS)}`;
      else if (extra < 0.3) q += ` since ${pick(MONTHS)}`;
      else if (extra < 0.35) q += ` in ${pick(TOOLS)}`;
      if (random() < 0.15) q = typo(q, random);
    } else {
      q = pick(ELSEWHERE);
    }
    q = `${pick(OPENERS)}${q}${pick(CLOSERS)}`;
    pool.push(q.charAt(0).toUpperCase() + q.slice(1));
  }
  return pool;
}
