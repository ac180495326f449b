/**
 * A last guard before a config or summary reaches the run directory. The config loader redacts
 * secrets already; this catches what slips through (upstream redacted only three key names:
 * weak spot 17): values under secret-looking keys, and any string that contains the value of a
 * secret-looking environment variable.
 */

const SECRET_NAME_ENDINGS = [
  'apikey',
  'secret',
  'token',
  'password',
  'passwd',
  'credential',
  'credentials',
  'accesskey',
  'privatekey',
  'authorization',
  'cookie',
] as const;

/** Environment values shorter than this are too likely to occur by chance to be replaced. */
const MIN_SECRET_LENGTH = 8;

const REDACTED = '[redacted]';

/** True for names like `api_key`, `OPENAI_API_KEY`, `clientSecret`, `GITHUB_TOKEN`. */
export function isSecretLookingName(name: string): boolean {
  const normalised = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_NAME_ENDINGS.some((ending) => normalised.endsWith(ending));
}

/** A deep copy of `value` with secrets replaced; see the file comment. */
export function redactArtifactSecrets(value: unknown, environment: NodeJS.ProcessEnv = process.env): unknown {
  const secrets = Object.entries(environment)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].length >= MIN_SECRET_LENGTH && isSecretLookingName(entry[0]))
    .sort((a, b) => b[1].length - a[1].length);

  function redactString(text: string): string {
    let result = text;
    for (const [name, secret] of secrets) if (result.includes(secret)) result = result.split(secret).join(`[redacted:$${name}]`);
    return result;
  }

  function visit(node: unknown, key: string | undefined): unknown {
    if (typeof node === 'string') return key !== undefined && isSecretLookingName(key) && node !== '' ? REDACTED : redactString(node);
    if (Array.isArray(node)) return node.map((item) => visit(item, undefined));
    if (typeof node === 'object' && node !== null) {
      const copy: Record<string, unknown> = {};
      for (const [childKey, child] of Object.entries(node)) copy[childKey] = visit(child, childKey);
      return copy;
    }
    return node;
  }

  // A JSON round trip first, so dates and other toJSON values look as they will in the file.
  const json = value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
  return visit(json, undefined);
}
