/**
 * What counts as a secret, and how it is cut out of text and data on its way into an artifact, a
 * log line, an event or an error message. It lives in the contract because every layer needs the
 * one rule: backends scrub provider text, core redacts configs and reports, Sleep redacts
 * transcripts it harvests. The original kept several partial copies that missed most real key
 * names and formats (upstream-core §10.17, upstream-sleep §1.13); this one covers the spellings
 * providers, CLIs and cloud connection strings actually use, and leaves prose alone
 * ("the token budget", "the gate rejected the edit").
 */

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/** `apiKey`, `x-api-key`, `AZURE_OPENAI_API_KEY` → `api_key`, `x_api_key`, `azure_openai_api_key`. */
function normaliseKeyName(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s.]+/g, '_')
    .toLowerCase();
}

const SECRET_KEY_PATTERNS: readonly RegExp[] = [
  /(^|_)api_?key$/, // api_key, apikey, azure_openai_api_key, x_api_key
  /(^|_)(access|secret|private|signing|encryption|account|shared_access|secret_access|subscription)_?key$/,
  // `token` alone or as the last word (`access_token`, `github_token`) — but not `max_tokens`.
  /(^|_)(access_?|refresh_?|sas_?|session_?|id_?|auth_?)?token$/,
  /(^|_)(secret|client_?secret|password|passwd|passphrase|pwd|sig)$/,
  /^(authorization|proxy_authorization|bearer|cookie|set_cookie)$/,
  /(^|_)credentials?$/,
  /(^|_)(session_key|connection_string)$/,
];

/**
 * Whether a key's name says its value is a secret. `PWD` in capitals is the shell's working
 * directory, not a password.
 */
export function isSecretKey(key: string): boolean {
  if (key === 'PWD') return false;
  const name = normaliseKeyName(key);
  return SECRET_KEY_PATTERNS.some((pattern) => pattern.test(name));
}

// A credential word as the last part of a name: `api_key`, `AZURE_CLIENT_SECRET`, `clientsecret`.
const CREDENTIAL_NAME = `[A-Za-z0-9_-]*?(?:api[_-]?key|access[_-]?token|refresh[_-]?token|token|password|passwd|client[_-]?secret|secret[_-]?access[_-]?key|shared[_-]?access[_-]?key|secret[_-]?key|private[_-]?key|account[_-]?key|secret)`;
// A value: double- or single-quoted (to the end of the line when unterminated), braced, or bare.
const VALUE = String.raw`(?:"[^"\n]*"?|'[^'\n]*'?|\{[^}\n]*\}?|[^\s"'&;,)\]}]+)`;

/**
 * Substrings that are secrets whatever holds them, in the order they are applied. Earlier rules
 * take precise formats with their own markers; the later, generic ones take `name=value` forms.
 */
const SECRET_TEXT_RULES: ReadonlyArray<{ pattern: RegExp; replace: string | ((...groups: string[]) => string) }> = [
  // PEM private key blocks, whole.
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, replace: REDACTED },
  // A JSON or dict-literal member whose key names a credential: the value's contents go, quotes stay.
  {
    pattern: new RegExp(String.raw`(["'])(${CREDENTIAL_NAME}|pwd|sig)\1(\s*:\s*)(["'])(?:(?!\4)[^\n\\]|\\.)*\4`, 'gi'),
    replace: (_match, quote, name, colon, valueQuote) => `${quote}${name}${quote}${colon}${valueQuote}${REDACTED}${valueQuote}`,
  },
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g, replace: `$1 ${REDACTED}` },
  // OpenAI (sk-…, sk-proj-…), Anthropic (sk-ant-…), and OpenAI-compatible hosts that copy the format.
  { pattern: /\bsk-[A-Za-z0-9_*-]{10,}/g, replace: REDACTED },
  { pattern: /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, replace: REDACTED },
  { pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, replace: REDACTED },
  { pattern: /\bAKIA[0-9A-Z]{16}\b/g, replace: REDACTED },
  { pattern: /\bAIza[0-9A-Za-z_-]{20,}/g, replace: REDACTED },
  { pattern: /\bhf_[A-Za-z0-9]{30,}/g, replace: REDACTED },
  // JSON Web Tokens (Azure AD access tokens among them): three base64url parts, the first `eyJ…`.
  { pattern: /\beyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}/g, replace: REDACTED },
  // Credentials inside a URL: `https://user:password@host/…`.
  { pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@"']+@/gi, replace: `$1${REDACTED}@` },
  // Connection strings and Azure storage: `Password=…`, `Pwd=…`, `;PWD=…`, `AccountKey=…`, `sig=…`.
  { pattern: /\b(Password|Pwd|pwd|AccountKey|SharedAccessKey|sig)=("[^"]*"|'[^']*'|\{[^}]*\}|[^;&\s"']+)/g, replace: `$1=${REDACTED}` },
  { pattern: /(;\s*PWD=)[^;\s]+/g, replace: `$1${REDACTED}` },
  // Key-like query parameters: a name that ends in a credential word (`?key=…`, `&access_token=…`,
  // `&signature=…`, Azure API Management's `?subscription-key=…`), or Azure Functions' `?code=…`.
  {
    pattern: /([?&](?:[A-Za-z0-9_.-]*(?:key|token|secret|signature|sig|password|passwd|pwd|credentials?)|code|auth)=)[^&#\s"']+/gi,
    replace: `$1${REDACTED}`,
  },
  // `name: value` and `name=value` where the name ends in a credential word.
  {
    pattern: new RegExp(String.raw`\b(${CREDENTIAL_NAME})(\s*[:=]\s*)(?!\[redacted\])${VALUE}`, 'gi'),
    replace: (_match, name, separator) => `${name}${separator}${REDACTED}`,
  },
  // `token abc123…` written with a space: only values that look machine-made (a digit or a symbol,
  // or 16+ letters), so that "token budget" and "password reset" stay prose.
  {
    pattern: /\b(api[-_]?key|apikey|token|password|secret)(\s+)(?!\[redacted\])(?=[^\s]{6,})((?=[^\s]*[0-9_./+=:@-])[^\s,;)]+|[A-Za-z]{16,})/gi,
    replace: (_match, name, space) => `${name}${space}${REDACTED}`,
  },
];

/**
 * `text` with every secret cut out: the `knownSecrets` given (the keys this process holds, at
 * least 4 characters long) wherever they appear, and anything shaped like a credential.
 */
export function redactSecretText(text: string, knownSecrets: ReadonlyArray<string | undefined> = []): string {
  let result = text;
  for (const secret of knownSecrets) if (secret !== undefined && secret.length >= 4) result = result.split(secret).join(REDACTED);
  for (const { pattern, replace } of SECRET_TEXT_RULES) result = result.replace(pattern, replace as (...groups: string[]) => string);
  return result;
}

/**
 * A copy of `value` that is safe to write anywhere: the value of every key that names a secret
 * becomes "[redacted]", and inside every other string anything shaped like a credential is cut
 * out. Empty values stay empty, so a reader can tell "not set" from "set and hidden". Cycles are
 * cut rather than followed.
 */
export function redactSecrets<Value>(value: Value, knownSecrets: ReadonlyArray<string | undefined> = []): Value {
  return redact(value, knownSecrets, new WeakSet()) as Value;
}

function redact(value: unknown, knownSecrets: ReadonlyArray<string | undefined>, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactSecretText(value, knownSecrets);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redact(item, knownSecrets, seen));
  if (value instanceof Date) return value;
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, redactEntry(String(key), item, knownSecrets, seen)]));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redactEntry(key, item, knownSecrets, seen);
  return copy;
}

function redactEntry(key: string, item: unknown, knownSecrets: ReadonlyArray<string | undefined>, seen: WeakSet<object>): unknown {
  const unset = item === undefined || item === null || item === '';
  if (isSecretKey(key) && !unset) return REDACTED;
  return redact(item, knownSecrets, seen);
}

/** Environment values shorter than this are too likely to occur by chance to be replaced. */
const MIN_SECRET_VALUE_LENGTH = 8;

/**
 * The values of the secret-looking variables of `environment`, longest first (so no shorter one
 * splits a longer one): secrets a process holds, to be cut out wherever they appear.
 */
export function secretEnvironmentValues(environment: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(environment)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].length >= MIN_SECRET_VALUE_LENGTH && isSecretKey(entry[0]))
    .map(([, secret]) => secret)
    .sort((left, right) => right.length - left.length);
}
