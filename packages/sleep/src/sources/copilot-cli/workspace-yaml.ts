/**
 * The Copilot CLI's `workspace.yaml` beside a session's events: flat `key: value` lines (`id`,
 * `cwd`, `created_at`, `updated_at`, …). Only those top-level scalar lines are read; indented
 * lines and block scalars (a multi-line summary) are passed over, so no YAML library is needed
 * for the few keys a harvest uses.
 */
export type WorkspaceFields = Readonly<Record<string, string>>;

const KEY_VALUE_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:\s+(.*))?$/;

function unquote(value: string): string | undefined {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(value);
      return typeof parsed === 'string' ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  return value;
}

function scalarOf(raw: string): string | undefined {
  const value = raw.trim();
  // A block scalar, a flow collection or an alias holds no plain value on this line.
  if (value === '' || /^[|>[{&*!]/.test(value)) return undefined;
  // A comment after a plain value starts at " #".
  const commentAt = value.startsWith('"') || value.startsWith("'") ? -1 : value.indexOf(' #');
  return unquote(commentAt === -1 ? value : value.slice(0, commentAt).trimEnd());
}

/** The top-level scalar fields of a `workspace.yaml` text; the first occurrence of a key wins. */
export function parseWorkspaceYaml(text: string): WorkspaceFields {
  // No prototype: a key named `__proto__` is then just a key.
  const fields: Record<string, string> = Object.create(null);
  for (const line of text.split(/\r?\n/)) {
    const match = KEY_VALUE_LINE.exec(line);
    if (match === null) continue;
    const [, key, raw] = match as unknown as [string, string, string | undefined];
    if (Object.hasOwn(fields, key)) continue;
    const value = scalarOf(raw ?? '');
    if (value !== undefined) fields[key] = value;
  }
  return fields;
}
