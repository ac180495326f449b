import path from 'node:path';
import type { PackageKind } from '@skillopt/contract';

/** How a name from a config or the command line is looked up. */
export type PackageRequest =
  /** A path to a package directory or an entry file, resolved against the working directory. */
  | { form: 'path'; path: string }
  /**
   * Package names to try in order. `conventional` lists the names derived from a short name; an
   * `asGiven` name is only accepted when it turns out to be a package of the right kind, so a short
   * name like `openai` does not silently load the unrelated `openai` SDK.
   */
  | { form: 'names'; conventional: string[]; asGiven: string | undefined };

const SHORT_NAME = /^[a-z0-9][a-z0-9._-]*$/;
const PREFIX: Record<PackageKind, string> = { env: 'env', backend: 'backends' };

/** The conventional package names of a short name: `@skillopt/env-searchqa`, `skillopt-env-searchqa`. */
export function conventionalPackageNames(kind: PackageKind, shortName: string): string[] {
  return [`@skillopt/${PREFIX[kind]}-${shortName}`, `skillopt-${PREFIX[kind]}-${shortName}`];
}

/**
 * - a path (`./my-env`, `../x`, `/abs/x`, `C:\x`, `file:` URL) is taken as given;
 * - a scoped name (`@acme/env-x`) or one already carrying the convention (`skillopt-env-x`) is a
 *   full package name, taken as given;
 * - any other plain name (`searchqa`) is a short name: `@skillopt/env-searchqa`, then
 *   `skillopt-env-searchqa`, then — for third-party packages named freely — the name itself.
 */
export function interpretPackageName(kind: PackageKind, name: string): PackageRequest {
  const trimmed = name.trim();
  if (trimmed === '') throw new TypeError(`An empty ${kind} name cannot be resolved`);
  if (trimmed.startsWith('file:')) return { form: 'path', path: trimmed };
  if (
    trimmed.startsWith('./') ||
    trimmed.startsWith('../') ||
    trimmed === '.' ||
    trimmed === '..' ||
    path.isAbsolute(trimmed) ||
    /^[a-zA-Z]:[\\/]/.test(trimmed) ||
    trimmed.startsWith('.\\') ||
    trimmed.startsWith('..\\')
  )
    return { form: 'path', path: trimmed };
  if (trimmed.startsWith('@') || trimmed.startsWith(`skillopt-${PREFIX[kind]}-`)) return { form: 'names', conventional: [trimmed], asGiven: undefined };
  if (!SHORT_NAME.test(trimmed)) throw new TypeError(`"${name}" is neither a package name nor a path (./…, ../… or absolute)`);
  return { form: 'names', conventional: conventionalPackageNames(kind, trimmed), asGiven: trimmed };
}
