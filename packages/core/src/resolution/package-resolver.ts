import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  ERROR_CODES,
  SkillOptError,
  isSupportedSpecificationVersion,
  describeBackendPackageProblem,
  describeEnvironmentPackageProblem,
  type BackendPackage,
  type EnvironmentPackage,
  type PackageKind,
} from '@skillopt/contract';
import { DEFAULT_IMPORT_CONDITIONS, locatePackage, locatePath, type LocatedPackage } from './package-entry.js';
import { interpretPackageName } from './package-candidates.js';
import { listOf } from './list-of.js';
import { adviseMissingPackage } from './missing-package-advice.js';

/**
 * Loads a module given its entry file. The default is a dynamic `import()` of the file URL; tests
 * running as CommonJS (Jest) pass `(url, file) => Promise.resolve(require(file))` instead.
 */
export type ModuleImporter = (fileUrl: string, filePath: string) => Promise<unknown>;

export interface PackageResolverOptions {
  /** The user's project: its node_modules are searched first. */
  workingDirectory: string;
  /**
   * Searched next, in order. The CLI passes its own location: a bare `import()` inside core
   * cannot see packages that core does not declare (pnpm, global installs), the CLI's can.
   */
  fallbackDirectories?: readonly string[];
  importModule?: ModuleImporter;
  /** `exports` conditions for the entry file; default import, node, default (ES modules). */
  conditions?: readonly string[];
}

export interface ResolvedPackage<Module> {
  kind: PackageKind;
  /** The name as the config or command line gave it. */
  requestedName: string;
  /** The package name that was found; undefined when a path was given. */
  packageName: string | undefined;
  packageDirectory: string;
  entryFile: string;
  /** The search directory it was found from, or the working directory for a path. */
  foundFrom: string;
  module: Module;
}

export interface PackageResolver {
  /** The directories searched, in order (absolute, without duplicates). */
  readonly searchDirectories: readonly string[];
  resolveEnvironmentPackage(name: string): Promise<ResolvedPackage<EnvironmentPackage>>;
  resolveBackendPackage(name: string): Promise<ResolvedPackage<BackendPackage>>;
}

const KIND_NAMES: Record<PackageKind, string> = { env: 'env', backend: 'backend' };

/**
 * Resolves env and backend packages by name at run time (docs/architecture.md, "Packages and the one rule of
 * dependencies"): core never depends on an adapter; the CLI hands core this resolver.
 */
export function createPackageResolver(options: PackageResolverOptions): PackageResolver {
  const workingDirectory = path.resolve(options.workingDirectory);
  const searchDirectories = [...new Set([workingDirectory, ...(options.fallbackDirectories ?? []).map((directory) => path.resolve(directory))])];
  const importModule: ModuleImporter = options.importModule ?? ((fileUrl) => import(fileUrl));
  const conditions = options.conditions ?? DEFAULT_IMPORT_CONDITIONS;

  async function resolve<Module>(kind: PackageKind, name: string, describeProblem: (value: unknown) => string | undefined): Promise<ResolvedPackage<Module>> {
    const request = interpretPackageName(kind, name);

    if (request.form === 'path') {
      const absolutePath = request.path.startsWith('file:') ? fileURLToPath(request.path) : path.resolve(workingDirectory, request.path);
      const located = locatePath(absolutePath, conditions);
      if (located === undefined)
        throw new SkillOptError({
          code: ERROR_CODES.packageNotFound,
          category: 'user',
          message: `No ${KIND_NAMES[kind]} package at ${request.path} (resolved to ${absolutePath}): expected a package directory with a package.json, or a JavaScript entry file.`,
          details: { kind, name, path: absolutePath },
        });
      const loaded = await load(kind, name, located, describeProblem);
      if (typeof loaded === 'string') throw invalidPackageError(kind, name, located, loaded, loadedModules.get(located.entryFile));
      return { kind, requestedName: name, packageName: undefined, ...located, foundFrom: workingDirectory, module: loaded as Module };
    }

    for (const directory of searchDirectories) {
      for (const packageName of request.conventional) {
        const located = locatePackage(directory, packageName, conditions);
        if (located === undefined) continue;
        const loaded = await load(kind, packageName, located, describeProblem);
        if (typeof loaded === 'string') throw invalidPackageError(kind, packageName, located, loaded, loadedModules.get(located.entryFile));
        return { kind, requestedName: name, packageName, ...located, foundFrom: directory, module: loaded as Module };
      }
    }

    let asGivenProblem: string | undefined;
    if (request.asGiven !== undefined) {
      for (const directory of searchDirectories) {
        const located = locatePackage(directory, request.asGiven, conditions);
        if (located === undefined) continue;
        const loaded = await load(kind, request.asGiven, located, describeProblem);
        if (typeof loaded !== 'string')
          return { kind, requestedName: name, packageName: request.asGiven, ...located, foundFrom: directory, module: loaded as Module };
        asGivenProblem ??= `A package named ${request.asGiven} is installed (${located.packageDirectory}) but is not ${article(kind)} package: ${loaded}.`;
      }
    }

    const tried = [...request.conventional, ...(request.asGiven === undefined ? [] : [request.asGiven])];
    const advice = adviseMissingPackage(kind, name, searchDirectories);
    throw new SkillOptError({
      code: ERROR_CODES.packageNotFound,
      category: 'user',
      message: [
        `The ${KIND_NAMES[kind]} package "${name}" is not installed: looked for ${listOf(tried)} from ${listOf(searchDirectories)}.`,
        ...(asGivenProblem === undefined ? [] : [asGivenProblem]),
        ...advice.sentences,
      ].join(' '),
      details: {
        kind,
        name,
        tried,
        searchDirectories,
        ...(advice.installCommand === undefined ? {} : { installCommand: advice.installCommand }),
        ...(advice.didYouMean === undefined ? {} : { didYouMean: advice.didYouMean }),
      },
    });
  }

  // The module of each entry file loaded so far, for error details; also avoids loading twice.
  const loadedModules = new Map<string, unknown>();

  /** The usable package module, or a string saying what is wrong with it. */
  async function load(
    kind: PackageKind,
    packageName: string,
    located: LocatedPackage,
    describeProblem: (value: unknown) => string | undefined,
  ): Promise<unknown> {
    let namespace: unknown;
    try {
      namespace = loadedModules.has(located.entryFile)
        ? loadedModules.get(located.entryFile)
        : await importModule(pathToFileURL(located.entryFile).href, located.entryFile);
    } catch (error) {
      throw new SkillOptError({
        code: ERROR_CODES.packageInvalid,
        category: 'user',
        message: `The ${KIND_NAMES[kind]} package ${packageName} (${located.entryFile}) failed to load: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
        details: { kind, packageName, entryFile: located.entryFile },
      });
    }
    loadedModules.set(located.entryFile, namespace);
    const problem = describeProblem(namespace);
    if (problem === undefined) return namespace;
    // A CommonJS package imported as an ES module may arrive with everything under `default`.
    const fallback = typeof namespace === 'object' && namespace !== null ? (namespace as { default?: unknown }).default : undefined;
    if (fallback !== undefined && describeProblem(fallback) === undefined) return fallback;
    return problem;
  }

  return {
    searchDirectories,
    resolveEnvironmentPackage: (name) => resolve<EnvironmentPackage>('env', name, describeEnvironmentPackageProblem),
    resolveBackendPackage: (name) => resolve<BackendPackage>('backend', name, describeBackendPackageProblem),
  };
}

function invalidPackageError(kind: PackageKind, packageName: string, located: LocatedPackage, problem: string, namespace: unknown): SkillOptError {
  const version = manifestVersionOf(namespace);
  const unsupported = version !== undefined && !isSupportedSpecificationVersion('package-manifest', version);
  return new SkillOptError({
    code: unsupported ? ERROR_CODES.specificationUnsupported : ERROR_CODES.packageInvalid,
    category: 'user',
    message: `${packageName} (${located.entryFile}) is not a usable ${KIND_NAMES[kind]} package: ${problem}.${
      unsupported ? ' Install a version of the package built for this release of SkillOpt.' : ' Check the name, and that the package was built for SkillOpt.'
    }`,
    details: { kind, packageName, entryFile: located.entryFile, problem },
  });
}

function manifestVersionOf(namespace: unknown): string | undefined {
  for (const candidate of [namespace, (namespace as { default?: unknown } | undefined)?.default]) {
    const manifest = (candidate as { manifest?: { specificationVersion?: unknown } } | undefined)?.manifest;
    if (typeof manifest?.specificationVersion === 'string') return manifest.specificationVersion;
  }
  return undefined;
}

function article(kind: PackageKind): string {
  return kind === 'env' ? 'an env' : 'a backend';
}
