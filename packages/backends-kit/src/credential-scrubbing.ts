/**
 * Text from a provider (an error body, a proxy's echo of the request) on its way into an error
 * message, a log line or an event: the known secrets are cut out, and so is anything shaped like a
 * credential (bearer and basic credentials, `sk-…` keys, JSON Web Tokens, URL user info).
 */
export function scrubCredentials(text: string, knownSecrets: ReadonlyArray<string | undefined> = []): string {
  let result = text;
  for (const secret of knownSecrets) if (secret !== undefined && secret.length >= 4) result = result.split(secret).join('[redacted]');
  return result
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, '$1 [redacted]')
    .replace(/\bsk-[A-Za-z0-9_*-]{6,}/g, '[redacted]')
    .replace(/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, '[redacted]')
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@"']+@/gi, '$1[redacted]@');
}
