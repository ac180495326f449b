import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Finding a package's entry file from a directory, as Node would for `import`, without importing.
 *
 * `createRequire(...).resolve` gives the *require* entry of a package (its CommonJS build), while the
 * CLI runs as ES modules and should load the package's `import` entry, the same copy everything
 * else imports. So the package directory is found along the anchor's own node_modules search path
 * (`require.resolve.paths`, exactly where Node would look), and the entry is read from its
 * package.json `exports` with the wanted conditions, then `module`/`main`, then index.js.
 */

export interface LocatedPackage {
  packageDirectory: string;
  entryFile: string;
}

/** Conditions of `exports` to honour, in the importer's terms. */
export const DEFAULT_IMPORT_CONDITIONS: readonly string[] = ['import', 'node', 'default'];

/** The package `packageName` as seen from `anchorDirectory`, or undefined when it is not installed there. */
export function locatePackage(anchorDirectory: string, packageName: string, conditions: readonly string[]): LocatedPackage | undefined {
  const anchoredRequire = createRequire(path.join(anchorDirectory, 'package.json'));
  for (const modulesDirectory of anchoredRequire.resolve.paths(packageName) ?? []) {
    const packageDirectory = path.join(modulesDirectory, ...packageName.split('/'));
    if (!existsSync(path.join(packageDirectory, 'package.json'))) continue;
    const entryFile = packageEntryFile(packageDirectory, conditions);
    if (entryFile !== undefined) return { packageDirectory, entryFile };
  }
  const ownPackage = selfReference(anchorDirectory, packageName, conditions);
  if (ownPackage !== undefined) return ownPackage;
  // Yarn Plug'n'Play has no node_modules directories; only its resolver knows where packages are.
  // Asked only there: elsewhere a resolver that falls back beyond Node's rules (a test runner's)
  // would find packages a user's Node never would.
  if (process.versions.pnp === undefined) return undefined;
  try {
    const entryFile = anchoredRequire.resolve(packageName);
    return { packageDirectory: path.dirname(entryFile), entryFile };
  } catch {
    return undefined;
  }
}

/**
 * A package asked for by its own name from inside itself (Node's self-reference): the nearest
 * package.json at or above the anchor, when it carries that name. This is how a package being
 * developed — a scaffolded env, say — is found by `skillopt train` run from its own directory.
 */
function selfReference(anchorDirectory: string, packageName: string, conditions: readonly string[]): LocatedPackage | undefined {
  for (let directory = path.resolve(anchorDirectory); ; directory = path.dirname(directory)) {
    const manifestPath = path.join(directory, 'package.json');
    if (existsSync(manifestPath)) {
      let name: unknown;
      try {
        name = (JSON.parse(readFileSync(manifestPath, 'utf8')) as { name?: unknown }).name;
      } catch {
        return undefined;
      }
      if (name !== packageName) return undefined;
      const entryFile = packageEntryFile(directory, conditions);
      return entryFile === undefined ? undefined : { packageDirectory: directory, entryFile };
    }
    if (path.dirname(directory) === directory) return undefined;
  }
}

/** The entry of a path given by the user: a package directory or a file (extension optional). */
export function locatePath(absolutePath: string, conditions: readonly string[]): LocatedPackage | undefined {
  if (isDirectory(absolutePath)) {
    if (existsSync(path.join(absolutePath, 'package.json'))) {
      const entryFile = packageEntryFile(absolutePath, conditions);
      return entryFile === undefined ? undefined : { packageDirectory: absolutePath, entryFile };
    }
    for (const index of ['index.js', 'index.mjs', 'index.cjs'])
      if (isFile(path.join(absolutePath, index))) return { packageDirectory: absolutePath, entryFile: path.join(absolutePath, index) };
    return undefined;
  }
  for (const candidate of [absolutePath, `${absolutePath}.js`, `${absolutePath}.mjs`, `${absolutePath}.cjs`])
    if (isFile(candidate)) return { packageDirectory: path.dirname(candidate), entryFile: candidate };
  return undefined;
}

function packageEntryFile(packageDirectory: string, conditions: readonly string[]): string | undefined {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(path.join(packageDirectory, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (manifest.exports !== undefined) {
    const target = exportsTarget(manifest.exports, conditions);
    // A package with `exports` exposes only what they list: no fallback to main.
    return target === undefined ? undefined : existingFile(path.join(packageDirectory, target));
  }
  const candidates: string[] = [];
  if (conditions.includes('import') && typeof manifest.module === 'string') candidates.push(manifest.module);
  if (typeof manifest.main === 'string') candidates.push(manifest.main, `${manifest.main}.js`, path.join(manifest.main, 'index.js'));
  candidates.push('index.js');
  for (const candidate of candidates) {
    const file = existingFile(path.join(packageDirectory, candidate));
    if (file !== undefined) return file;
  }
  return undefined;
}

/** The "." target of an `exports` field under the given conditions (Node's algorithm, main entry only). */
function exportsTarget(exportsField: unknown, conditions: readonly string[]): string | undefined {
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) return conditionalTarget(exportsField, conditions);
  if (typeof exportsField !== 'object' || exportsField === null) return undefined;
  const keys = Object.keys(exportsField);
  const record = exportsField as Record<string, unknown>;
  if (keys.some((key) => key.startsWith('.'))) return conditionalTarget(record['.'], conditions);
  return conditionalTarget(record, conditions);
}

function conditionalTarget(target: unknown, conditions: readonly string[]): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const item of target) {
      const resolved = conditionalTarget(item, conditions);
      if (resolved !== undefined) return resolved;
    }
    return undefined;
  }
  if (typeof target !== 'object' || target === null) return undefined;
  for (const [condition, value] of Object.entries(target)) {
    if (condition !== 'default' && !conditions.includes(condition)) continue;
    const resolved = conditionalTarget(value, conditions);
    if (resolved !== undefined) return resolved;
  }
  return undefined;
}

function existingFile(file: string): string | undefined {
  return isFile(file) ? file : undefined;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isDirectory(directory: string): boolean {
  try {
    return statSync(directory).isDirectory();
  } catch {
    return false;
  }
}
