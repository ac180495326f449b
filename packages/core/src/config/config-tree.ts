/**
 * A configuration as read from YAML before validation: nested mappings of unknown values. The
 * helpers here never mutate their input, because layers are merged, translated and tracked for
 * provenance side by side and each step must see the others' inputs unchanged.
 */
export type ConfigTree = Record<string, unknown>;

/** A YAML mapping (and not a list, null or a class instance). */
export function isConfigMapping(value: unknown): value is ConfigTree {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** A deep copy of plain mappings and lists; other values are shared (they are immutable scalars). */
export function cloneConfigValue<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => cloneConfigValue(item) as unknown) as T;
  if (isConfigMapping(value)) {
    const copy: ConfigTree = {};
    for (const [key, item] of Object.entries(value)) copy[key] = cloneConfigValue(item);
    return copy as T;
  }
  return value;
}

export function getAtPath(tree: unknown, path: readonly string[]): unknown {
  let current: unknown = tree;
  for (const key of path) {
    if (!isConfigMapping(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/**
 * Sets `value` at `path` in place, creating mappings on the way; a non-mapping in the way is
 * replaced, as the original's `--cfg-options` does when it creates a section.
 */
export function setAtPath(tree: ConfigTree, path: readonly string[], value: unknown): void {
  if (path.length === 0) throw new Error('setAtPath needs a non-empty path');
  let current = tree;
  for (const key of path.slice(0, -1)) {
    const next = current[key];
    if (isConfigMapping(next)) current = next;
    else {
      const created: ConfigTree = {};
      current[key] = created;
      current = created;
    }
  }
  current[path[path.length - 1] as string] = value;
}

/**
 * Every leaf of a tree with its path. A leaf is anything that is not a non-empty mapping: lists
 * are leaves because a later layer replaces a list as a whole rather than merging it.
 */
export function listLeaves(tree: unknown, prefix: readonly string[] = []): Array<{ path: string[]; value: unknown }> {
  if (!isConfigMapping(tree) || (Object.keys(tree).length === 0 && prefix.length > 0)) return [{ path: [...prefix], value: tree }];
  const leaves: Array<{ path: string[]; value: unknown }> = [];
  for (const [key, value] of Object.entries(tree)) leaves.push(...listLeaves(value, [...prefix, key]));
  return leaves;
}

/** `train.num_epochs`, as configs and messages spell a key. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  return path
    .map((key) => (typeof key === 'number' ? `[${key}]` : String(key)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** Splits a dotted key from the command line; empty segments are refused by the caller. */
export function parseConfigPath(dotted: string): string[] {
  return dotted.split('.').map((segment) => segment.trim());
}
