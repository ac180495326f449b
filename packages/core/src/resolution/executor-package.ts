import { pathToFileURL } from 'node:url';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import type { ExecutorId } from './known-package-names.js';
import { DEFAULT_IMPORT_CONDITIONS, locatePackage } from './package-entry.js';
import type { ModuleImporter } from './package-resolver.js';

/** The package of a distributed executor: `@skillopt/executor-<id>`. */
export function executorPackageName(id: Exclude<ExecutorId, 'in-process'>): string {
  return `@skillopt/executor-${id}`;
}

/**
 * Loads a distributed executor's package by name from the first search directory that has it
 * (a resolver's `searchDirectories`: the project's, then the CLI's own), as env and backend
 * packages are: the CLI does not depend on it. Missing, it is a user error with the `npm install`
 * that fixes it.
 */
export async function importExecutorPackage(
  id: Exclude<ExecutorId, 'in-process'>,
  options: { searchDirectories: readonly string[]; importModule?: ModuleImporter },
): Promise<unknown> {
  const packageName = executorPackageName(id);
  const importModule: ModuleImporter = options.importModule ?? ((fileUrl) => import(fileUrl));
  for (const directory of options.searchDirectories) {
    const located = locatePackage(directory, packageName, DEFAULT_IMPORT_CONDITIONS);
    if (located !== undefined) return importModule(pathToFileURL(located.entryFile).href, located.entryFile);
  }
  throw new SkillOptError({
    code: ERROR_CODES.packageNotFound,
    category: 'user',
    message: `the executor "${id}" needs the package ${packageName}, which is not installed here; install it in your project (or beside the CLI): npm install ${packageName}`,
    details: { packageName },
  });
}
