/**
 * What counts as a secret, in one place, for both rules that use it: a config file never keeps
 * one (drop-config-secrets) and no artifact ever shows one (redact-secrets). The original's
 * redaction missed most real key names (upstream-core §10.17); these patterns cover the spellings
 * providers and CLIs actually use, in snake_case, camelCase and header form.
 */

/** `apiKey`, `x-api-key`, `AZURE_OPENAI_API_KEY` → `api_key`, `x_api_key`, `azure_openai_api_key`. */
function normaliseKeyName(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s.]+/g, '_')
    .toLowerCase();
}

const SECRET_KEY_PATTERNS: readonly RegExp[] = [
  /(^|_)api_?key$/, // api_key, apikey, azure_openai_api_key, x_api_key
  /(^|_)(access|secret|private|signing|encryption)_?key$/,
  // `token` alone or as the last word (`access_token`, `github_token`) — but not `max_tokens`.
  /(^|_)token$/,
  /(^|_)(secret|client_secret|password|passwd|passphrase|pwd)$/,
  /^(authorization|proxy_authorization|bearer|cookie|set_cookie)$/,
  /(^|_)credentials?$/,
  /(^|_)(session_key|connection_string|sas_token|refresh_token)$/,
];

/** Whether a key's name says its value is a secret. */
export function isSecretKey(key: string): boolean {
  const name = normaliseKeyName(key);
  return SECRET_KEY_PATTERNS.some((pattern) => pattern.test(name));
}

/**
 * Substrings that are secrets whatever key holds them: provider key formats and bearer
 * credentials. Each has the `g` flag for replacement; `Bearer` keeps its scheme word so a
 * redacted header still reads as one.
 */
export const SECRET_VALUE_PATTERNS: ReadonlyArray<{ pattern: RegExp; replacement: string }> = [
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, replacement: '$1 [redacted]' },
  // OpenAI (sk-…, sk-proj-…), Anthropic (sk-ant-…), and OpenAI-compatible hosts that copy the format.
  { pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, replacement: '[redacted]' },
  // GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_).
  { pattern: /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, replacement: '[redacted]' },
  // Slack, AWS access key ids, Google API keys, Hugging Face tokens.
  { pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, replacement: '[redacted]' },
  { pattern: /\bAKIA[0-9A-Z]{16}\b/g, replacement: '[redacted]' },
  { pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, replacement: '[redacted]' },
  { pattern: /\bhf_[A-Za-z0-9]{30,}/g, replacement: '[redacted]' },
  // Credentials inside a URL: `https://user:password@host/…` and key-like query parameters.
  { pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@"']+@/gi, replacement: '$1[redacted]@' },
  { pattern: /([?&](?:api[-_]?key|key|token|access[-_]?token|secret|sig|signature|password)=)[^&#\s"']+/gi, replacement: '$1[redacted]' },
  // JSON Web Tokens (Azure AD access tokens among them): three base64url parts starting with `eyJ`.
  { pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, replacement: '[redacted]' },
];
