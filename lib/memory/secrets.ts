/**
 * The secret filter: text that looks like a credential is never kept, from
 * agents or people. A fact is read by every agent and person its scope reaches,
 * and copied into prompts; a password in it has leaked the moment it is stored.
 *
 * The filter reads the text the way a person would copy it out: folded to
 * compatibility form (fullwidth `ｇｈｐ＿` is `ghp_`), with invisible characters,
 * accents and dash look-alikes taken out, so a zero-width space or a soft hyphen
 * inside a token does not hide it. It then looks for well-known credential
 * shapes, credentials in URLs, `key = value` pairs and "the password is …"
 * sentences. Measured on the labelled list in secrets.fixtures.ts.
 */

type Shape = {
  /** What the error calls it: "It looks like it contains <name>." */
  name: string;
  pattern: RegExp;
  /** When set, a match counts only if this accepts it (the value is judged in code, not in the pattern). */
  accept?: (match: RegExpExecArray) => boolean;
};

/** The text as the filter reads it: compatibility-folded, with nothing invisible, no accents, plain hyphens. */
export function detectionForm(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cs}\p{M}]/gu, "")
    .normalize("NFKC")
    .replace(/\p{Pd}/gu, "-");
}

// --- How a value is judged ---

/** Stand-ins people write instead of a real value: `$DB_PASSWORD`, `<your token>`, `{{secret}}`, `****`, `...`. */
const PLACEHOLDER = /^(?:\$\{?[\w.]+\}?|<.*|\{\{.*|%\w+%|\[.*|\*+|[xX]+|•+|\.{2,}|…|[A-Z][A-Z0-9]*_[A-Z0-9_]*)$/;
/**
 * Words that stand where a value would but are not one: settings
 * (`require_password=true`) and the places passwords are kept ("Password: 1Password").
 */
const STAND_IN_WORDS = new Set(
  [
    "true false yes no on off none null nil required optional enabled disabled redacted hidden masked empty unset",
    "password token secret 1password bitwarden lastpass keepass dashlane keychain vault doppler",
  ]
    .join(" ")
    .split(" "),
);
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;

function bareValue(value: string): string {
  return value.replace(TRAILING_PUNCTUATION, "");
}

/** "#alerts", "@max", "db.internal:5432", "https://vault.acme.test/x": where the value is, not the value. */
const REFERENCE = /^(?:[#@][a-z][\w.-]*|[a-z0-9-]+(?:\.[a-z0-9-]+)*(?:\.[a-z]{2,}(?::\d{2,5})?|:\d{2,5})|https?:\/\/[^\s@]+)$/;

function isStandIn(value: string): boolean {
  return !value || PLACEHOLDER.test(value) || REFERENCE.test(value) || STAND_IN_WORDS.has(value.toLowerCase());
}

/** A value nobody would write as a word: long, of at least two kinds of character, with a long unbroken run. */
function looksRandom(value: string, minLength = 12): boolean {
  if (value.length < minLength || !/[A-Za-z0-9]{10,}/.test(value)) return false;
  const kinds = [/[a-z]/, /[A-Z]/, /\d/].filter((kind) => kind.test(value)).length;
  return kinds >= 2;
}

/** After "password is" or "password:": something a person would not write as a word. */
function passwordLike(value: string): boolean {
  if (isStandIn(value) || value.length < 6) return false;
  if (/^\d+$/.test(value)) return true;
  return /\p{L}/u.test(value) && /[\d!#$%&*+=?@^~|]/.test(value);
}

/** After "token is", "token=" or "api_key:": a machine-made value. */
function tokenLike(value: string): boolean {
  if (isStandIn(value)) return false;
  return looksRandom(value) || (value.length >= 8 && /[A-Za-z]/.test(value) && /\d/.test(value));
}

const VALUE = String.raw`(?<quote>["'“‘]?)(?<value>[^\s"'“”‘’]+)`;

/** A quoted value is a literal the writer meant; an unquoted one is judged by `judge`. */
function valueAccepted(judge: (value: string) => boolean, minQuoted: number) {
  return (match: RegExpExecArray): boolean => {
    const quoted = !!match.groups?.quote;
    const value = bareValue(match.groups?.value ?? "");
    if (quoted) return value.length >= minQuoted && !isStandIn(value);
    return judge(value);
  };
}

// --- Names of settings that hold a password or a token ---

const PASSWORD_WORDS = String.raw`pass(?:word|wd|phrase|code)|pwd|secret|credentials?|(?:private|account|shared[_-]?access|signing|encryption|master|client)[_-]?(?:key|secret)`;
const TOKEN_WORDS = String.raw`token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|sig`;
const PASSWORD_CAMEL = "Password|Passwd|Passphrase|Secret|Credentials?|PrivateKey|AccountKey|SharedAccessKey|SigningKey|MasterKey";
const TOKEN_CAMEL = "Token|ApiKey|AccessKey|AuthKey";

/** `DB_PASSWORD`, `aws.secret.access-key`: the word is one piece of a name split by `_`, `.` or `-`. */
const pieceKey = (words: string) => String.raw`(?<![A-Za-z0-9])(?:[A-Za-z0-9]+[_.-])*(?:${words})(?:[_.-][A-Za-z0-9]+)*`;
/** `dbPassword`, `SecretAccessKey`: the word is one capitalised piece of a camel-case name. */
const camelKey = (words: string) => String.raw`(?<![A-Za-z0-9])[A-Za-z0-9]*?(?:${words})(?:[A-Z][a-z0-9]*)*`;
const ASSIGN = String.raw`["']?\s*(?<op>=>|=|:)\s*`;

function assignment(words: string, camel: string, accept: (match: RegExpExecArray) => boolean): Shape[] {
  const name = "a password or token";
  return [
    { name, pattern: new RegExp(pieceKey(words) + ASSIGN + VALUE, "gi"), accept },
    { name, pattern: new RegExp(camelKey(camel) + ASSIGN + VALUE, "g"), accept },
  ];
}

/**
 * `=` takes almost any value (`password=hunter`, `token=abcd`); after a colon only
 * a value that looks made up counts ("Password: ask Max"). A token setting set to
 * a number is a count (`token_limit=8000`).
 */
function acceptAssignment(judge: (value: string) => boolean, numbersAllowed: boolean) {
  return (match: RegExpExecArray): boolean => {
    const value = bareValue(match.groups?.value ?? "");
    if (match.groups?.op === ":" || match.groups?.quote) return valueAccepted(judge, 4)(match);
    return value.length >= 4 && !isStandIn(value) && (numbersAllowed || !/^\d+$/.test(value));
  };
}

// --- Sentences: "The wifi password is Tr0ub4dor&3", "the API key for staging: …" ---

const PASSWORD_NOUNS = String.raw`pass(?:word|wd|phrase|code)s?|pwd|pw`;
const TOKEN_NOUNS = String.raw`(?:api|access|secret|private|auth|signing|license|licence)[ _-]?keys?|(?:api|access|auth|bot|bearer|refresh|session|personal access)\s+tokens?|tokens?|secrets?`;
/** "for the staging db", "to the wifi", "of our VPN": at most two words saying what it is for. */
const QUALIFIER = String.raw`(?:\s+(?:for|of|to|on|at)\s+(?:the\s+|our\s+|my\s+|this\s+|that\s+)?[^\s.,;:!?]+(?:\s+[^\s.,;:!?]+)?)?`;
const IS = String.raw`\s*(?:\bis\b|\bwas\b|\bare\b|\breads\b|:|=|->|→)(?:\s+(?:now|still|currently|set\s+to|changed\s+to))?\s*[:-]?\s*`;

function sentence(nouns: string, judge: (value: string) => boolean, minQuoted: number): Shape {
  return {
    name: "a password or token",
    pattern: new RegExp(String.raw`\b(?:${nouns})\b${QUALIFIER}${IS}${VALUE}`, "gi"),
    accept: valueAccepted(judge, minQuoted),
  };
}

// --- URLs ---

const URL_PASSWORD: Shape = {
  name: "a password in a URL",
  // scheme://user:password@host — postgres://app:pa55w0rd@db, https://admin:S3cret@host, redis://:pw@cache
  pattern: /\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s:/?#@]*:([^\s/?#@]+)@/gi,
  accept: (match) => !isStandIn(match[1]),
};

/** A path segment after `hook(s)`/`webhook(s)` that no one would type: the URL is its own credential. */
const HOOK_URL: Shape = {
  name: "a webhook URL",
  pattern: /\bhttps?:\/\/[^\s/]+\/(?:[^\s?#]*\/)?(?:web)?hooks?\/([^\s?#]+)/gi,
  accept: (match) => match[1].split("/").some((segment) => looksRandom(segment, 16)),
};

const QUERY_CREDENTIAL: Shape = {
  name: "a password or token",
  pattern: /[?&](?:access_token|api[_-]?key|apikey|key|token|auth|client_secret|password|secret|private_token)=([^&#\s]+)/gi,
  accept: (match) => tokenLike(bareValue(match[1])),
};

// --- Well-known shapes ---

const shapes = (name: string, patterns: RegExp[]): Shape[] => patterns.map((pattern) => ({ name, pattern }));

const SHAPES: Shape[] = [
  ...shapes("a private key", [
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/,
    /PuTTY-User-Key-File-\d:/,
    /\bAGE-SECRET-KEY-1[0-9A-Z]{50,}/,
  ]),
  ...shapes("a Mnemo agent key", [/\bmnemo_[A-Za-z0-9_-]{32,}/]),
  ...shapes("a GitHub token", [/\bgh[pousr]_[A-Za-z0-9]{20,}/, /\bgithub_pat_[A-Za-z0-9_]{20,}/]),
  ...shapes("a GitLab token", [/\bgl(?:pat|ptt|dt|rt|cbt|oas)-[A-Za-z0-9_-]{20,}/]),
  ...shapes("a Slack token", [/\bxox[abeposr]-[A-Za-z0-9-]{10,}/, /\bxapp-\d-[A-Za-z0-9-]{20,}/]),
  ...shapes("an AWS access key", [/\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/]),
  ...shapes("a Google credential", [
    /\bAIza[A-Za-z0-9_-]{30,}/,
    /\bGOCSPX-[A-Za-z0-9_-]{20,}/,
    /\bya29\.[A-Za-z0-9_-]{20,}/,
    /(?<![\w/])1\/\/0[A-Za-z0-9_-]{30,}/,
  ]),
  ...shapes("a payment key", [
    /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}/,
    /\bwhsec_[A-Za-z0-9+/=]{20,}/,
    /\bsq0(?:atp|csp)-[A-Za-z0-9_-]{20,}/,
    /\bEAAA[A-Za-z0-9_-]{50,}/,
    /\baccess_token\$(?:production|sandbox)\$[a-z0-9]{10,}\$[a-f0-9]{20,}/,
    /\brzp_(?:live|test)_[A-Za-z0-9]{12,}/,
    /\baccess-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f-]{27,}/,
    /\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b/,
  ]),
  ...shapes("an access token", [
    /\bnpm_[A-Za-z0-9]{36}\b/,
    /\bpypi-[A-Za-z0-9_-]{50,}/,
    /\bdckr_pat_[A-Za-z0-9_-]{20,}/,
    /\bhf_[A-Za-z0-9]{30,}/,
    /\brubygems_[0-9a-f]{40,}/,
    /\bdo[opr]_v1_[a-f0-9]{64}\b/,
    /\blin_(?:api|oauth)_[A-Za-z0-9]{32,}/,
    /\b(?:secret|ntn)_[A-Za-z0-9]{40,}/,
    /\bATATT3[A-Za-z0-9_=-]{50,}/,
    /\bfig[dou]_[A-Za-z0-9_-]{30,}/,
    /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/,
    /\bdapi[a-f0-9]{32}\b/,
    /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/,
    /\bsbp_[a-f0-9]{40}\b/,
    /\bgl(?:sa|c)_[A-Za-z0-9+/_=]{32,}/,
    /\bNRAK-[A-Z0-9]{27}\b/,
    /\bsntry[su]_[A-Za-z0-9+/=_-]{40,}/,
    /\bdp\.(?:st|ct|sa|scim|audit)\.[A-Za-z0-9_.-]{40,}/,
    /\bpul-[a-f0-9]{40}\b/,
    /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}/,
    /\bnfp_[A-Za-z0-9]{36}\b/,
    /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b/,
    /\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/,
  ]),
  ...shapes("an API key", [
    // sk-… (OpenAI, Anthropic, DeepSeek and friends): a run of 16 letters or digits, so "sk-learn" is not one.
    /\bsk-(?:[a-z0-9]+-){0,2}[A-Za-z0-9_-]*?[A-Za-z0-9]{16}/,
    /\b(?:gsk|r8|xai|pplx)[_-][A-Za-z0-9]{32,}/,
    /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{30,}/,
    /\bkey-[0-9a-f]{32}\b/,
    /\b[0-9a-f]{32}-us\d{1,2}\b/,
    /\bSK[0-9a-fA-F]{32}\b/,
    /\b[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}/,
  ]),
  ...shapes("a JSON Web Token", [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/]),
  ...shapes("a webhook URL", [
    /\bhooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{16,}/,
    /\bdiscord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{20,}/,
    /\.webhook\.office\.com\/webhookb2\/\S{20,}/,
    /\boutlook\.office(?:365)?\.com\/webhook\/\S{20,}/,
    /\bchat\.googleapis\.com\/v1\/spaces\/[^\s/]+\/messages\?\S*(?:key|token)=/,
    /\bhooks\.zapier\.com\/hooks\/catch\/\d+\/[A-Za-z0-9]+/,
    /\bmaker\.ifttt\.com\/trigger\/\S+\/with\/key\/[A-Za-z0-9_-]{10,}/,
  ]),
  ...shapes("a signed URL", [/[?&](?:X-Amz-Signature|X-Goog-Signature|sig|signature)=[A-Za-z0-9%/+=_-]{16,}/i]),
  ...shapes("a password or token", [
    /\bBearer\s+(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{20,}/,
    /\bAuthorization:\s*Basic\s+[A-Za-z0-9+/]{8,}={0,2}/i,
  ]),
];

const AWS_SECRET: Shape = {
  name: "an AWS secret key",
  // 40 characters of base64, next to a word that says AWS: a git SHA (hex, one case) never passes.
  pattern: /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
  accept: (match) => /[a-z]/.test(match[0]) && /[A-Z]/.test(match[0]) && /\d/.test(match[0]) && /(?:^|[^a-z])(?:aws|amazon|s3|iam)(?![a-z])/i.test(match.input),
};

/** Credential shapes that must never be kept, each with a name for the error. */
const SECRET_SHAPES: Shape[] = [
  ...SHAPES,
  URL_PASSWORD,
  HOOK_URL,
  QUERY_CREDENTIAL,
  AWS_SECRET,
  ...assignment(PASSWORD_WORDS, PASSWORD_CAMEL, acceptAssignment(passwordLike, true)),
  ...assignment(TOKEN_WORDS, TOKEN_CAMEL, acceptAssignment(tokenLike, false)),
  sentence(PASSWORD_NOUNS, passwordLike, 4),
  // "The token is v2-signed" is a sentence; only a value no one would write as a word counts.
  sentence(TOKEN_NOUNS, (value) => !isStandIn(value) && looksRandom(value), 8),
];

function matches(shape: Shape, text: string): boolean {
  const { pattern, accept } = shape;
  if (!accept) return pattern.test(text);
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) if (accept(match)) return true;
  return false;
}

/** What kind of credential the text looks like, or null when it looks like none. */
export function looksLikeSecret(text: string): string | null {
  const form = detectionForm(text);
  for (const shape of SECRET_SHAPES) if (matches(shape, form)) return shape.name;
  return null;
}
