/** An endpoint a config points a backend at, and whether it answered. */
export interface EndpointCheck {
  /** The dotted config key, e.g. `backends.openai.base_url`. */
  key: string;
  /** The URL without credentials, query or fragment: safe to print. */
  url: string;
  answered: boolean;
  /** The HTTP status of the answer (any status counts: the server is there). */
  status?: number;
  problem?: string;
}

const ENDPOINT_KEYS = new Set(['base_url', 'endpoint']);
const ROLE_SECTIONS = new Set(['target', 'optimizer', 'judge']);

/** `backends.<id>.base_url` (and `endpoint`), and the same under a backend's role sub-sections. */
export function configuredEndpoints(config: { backends?: unknown }): Array<{ key: string; url: string }> {
  const found: Array<{ key: string; url: string }> = [];
  const backends = config.backends;
  if (!isMapping(backends)) return found;
  for (const [id, section] of Object.entries(backends)) {
    if (!isMapping(section)) continue;
    for (const [key, value] of Object.entries(section)) {
      if (ENDPOINT_KEYS.has(key) && typeof value === 'string' && value.trim() !== '') found.push({ key: `backends.${id}.${key}`, url: value.trim() });
      if (ROLE_SECTIONS.has(key) && isMapping(value))
        for (const [roleKey, roleValue] of Object.entries(value))
          if (ENDPOINT_KEYS.has(roleKey) && typeof roleValue === 'string' && roleValue.trim() !== '')
            found.push({ key: `backends.${id}.${key}.${roleKey}`, url: roleValue.trim() });
    }
  }
  return found;
}

/** A URL as it may be printed: no user, password, query or fragment (they can hold keys). */
function printableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(not a valid URL)';
  }
}

/** One GET to the URL; any HTTP answer means the server is there. */
export async function checkEndpoint(key: string, url: string, timeoutMs = 3000): Promise<EndpointCheck> {
  const shown = printableUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { key, url: shown, answered: false, problem: 'not a valid URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { key, url: shown, answered: false, problem: `not an http(s) URL (${parsed.protocol})` };
  // fetch refuses URLs with credentials; the server answers (or not) without them too.
  parsed.username = '';
  parsed.password = '';
  try {
    const response = await fetch(parsed, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel().catch(() => undefined);
    return { key, url: shown, answered: true, status: response.status };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const problem = timedOut
      ? `no answer within ${timeoutMs / 1000} s`
      : (cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)));
    return { key, url: shown, answered: false, problem };
  }
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
