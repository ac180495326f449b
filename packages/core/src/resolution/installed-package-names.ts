import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PackageKind } from '@skillopt/contract';

/** Libraries for package authors that share the naming pattern but are not packages to load. */
const AUTHOR_LIBRARIES = new Set(['@skillopt/env-kit', '@skillopt/backends-kit']);

const CONVENTIONAL_NAME = /^(?:@skillopt\/|skillopt-)(env|backends)-(.+)$/;

/** The kind and short name a conventional package name stands for (`@skillopt/env-searchqa` → env `searchqa`), if it is one. */
export function shortNameOf(packageName: string): { kind: PackageKind; shortName: string } | undefined {
  const match = CONVENTIONAL_NAME.exec(packageName);
  if (match === null || AUTHOR_LIBRARIES.has(packageName)) return undefined;
  return { kind: match[1] === 'env' ? 'env' : 'backend', shortName: match[2] as string };
}

/** The env and backend packages installed under one node_modules folder, by their conventional names (`@skillopt/env-*`, `skillopt-backends-*`, …), sorted. */
export function conventionalPackageNamesIn(modulesDirectory: string): string[] {
  const list = (directory: string): string[] => {
    try {
      return readdirSync(directory);
    } catch {
      return [];
    }
  };
  const names = [...list(path.join(modulesDirectory, '@skillopt')).map((entry) => `@skillopt/${entry}`), ...list(modulesDirectory)];
  return names.filter((name) => shortNameOf(name) !== undefined).sort();
}

/** Every conventionally named package of `kind` visible from the directories, in the node_modules folders Node would search from each. */
export function installedPackageNames(kind: PackageKind, directories: readonly string[]): string[] {
  const found = new Set<string>();
  for (const directory of directories) {
    const anchoredRequire = createRequire(path.join(directory, 'package.json'));
    for (const modulesDirectory of anchoredRequire.resolve.paths('skillopt-probe') ?? [])
      for (const name of conventionalPackageNamesIn(modulesDirectory)) if (shortNameOf(name)?.kind === kind) found.add(name);
  }
  return [...found];
}
