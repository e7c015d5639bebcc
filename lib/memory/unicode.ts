/**
 * Characters a reader cannot see but a model or a terminal still acts on. A fact
 * is read by people on a page and by models in a prompt; text that shows one
 * thing to the first and says another to the second (reversed by a bidi
 * override, split by a zero-width space, carried in tag characters) must not
 * survive into either. cleanFact (fact-text.ts) strips them before a fact is kept;
 * the secret filter (secrets.ts) reads through them.
 */

/**
 * What to drop, tried left to right at each position. The first three
 * alternatives are the invisible characters that still mean something, and are
 * kept: a joiner between two emoji (👩‍💻), a flag spelled with tag letters (the
 * flag of Scotland), and one variation selector right after a visible character
 * (❤️, or an ideograph's variant). Everything else that Unicode says to render as
 * nothing (Default_Ignorable_Code_Point: zero-width spaces and joiners, soft
 * hyphens, bidi controls, word joiners, fillers, tag letters, runs of variation
 * selectors), the interlinear annotation marks, and lone surrogates go.
 */
const EMOJI_JOINER = String.raw`\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?\u200D(?=\p{Extended_Pictographic})`;
const TAG_FLAG = String.raw`\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,6}\u{E007F}`;
const ONE_SELECTOR =
  String.raw`(?<=[\p{L}\p{M}\p{N}\p{P}\p{S}])(?<![\p{Default_Ignorable_Code_Point}\u2800])[\uFE00-\uFE0F]` +
  String.raw`|(?<=\p{Ideographic})[\u{E0100}-\u{E01EF}]`;
const INVISIBLE = new RegExp(
  String.raw`(${EMOJI_JOINER})|(${TAG_FLAG})|(${ONE_SELECTOR})|\p{Default_Ignorable_Code_Point}|[\uFFF9-\uFFFB]|\p{Cs}`,
  "gu",
);

/** The text without the characters a reader cannot see (see INVISIBLE for the few that are kept). */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, (_, joined?: string, flag?: string, selector?: string) => joined ?? flag ?? selector ?? "");
}

/**
 * What a fact kept before cleaning stripped it may still hold, and a prompt must
 * not: bidi controls, which reorder what is shown (U+202E shows "txt.exe" as
 * "exe.txt") while a model reads the characters as stored, and tag letters, an
 * invisible copy of ASCII that models read and people never see.
 */
export const DECEPTIVE_CHARACTERS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/gu;

/** Looks blank but is not whitespace: the Braille blank is a favourite "empty" name. */
const BLANK_LOOKING = /^[\s\u2800]*$/;

/** Whether text shows nothing a reader could see. */
export function looksBlank(text: string): boolean {
  return BLANK_LOOKING.test(text);
}
