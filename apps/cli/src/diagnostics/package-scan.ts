import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SUPPORTED_SPECIFICATION_VERSIONS, isSupportedSpecificationVersion, type CredentialVariable, type PackageKind } from '@skillopt/contract';
import { conventionalPackageNamesIn, createPackageResolver, shortNameOf } from '@skillopt/core';

/** An env or backend package installed where a directory's imports would find it. */
export interface InstalledPackage {
  packageName: string;
  version: string | undefined;
  /** What its name says it is. */
  kind: PackageKind;
  packageDirectory: string;
  /** From its manifest, once loaded. */
  id: string | undefined;
  specificationVersion: string | undefined;
  /** Backends: the environment variables it reads its secrets from, as its manifest declares them. */
  credentialVariables: readonly CredentialVariable[];
  ok: boolean;
  /** Why it cannot be used: it failed to load, is not a package of its kind, or targets another contract. */
  problem: string | undefined;
}

/**
 * The env and backend packages visible from a directory — in the node_modules folders Node would
 * search from it, nearest first — each loaded with core's resolver to read its manifest.
 */
export async function scanInstalledPackages(anchorDirectory: string): Promise<InstalledPackage[]> {
  const anchoredRequire = createRequire(path.join(anchorDirectory, 'package.json'));
  const modulesDirectories = anchoredRequire.resolve.paths('skillopt-probe') ?? [];
  const seen = new Set<string>();
  const found: InstalledPackage[] = [];
  const resolver = createPackageResolver({ workingDirectory: anchorDirectory });
  for (const modulesDirectory of modulesDirectories) {
    if (!existsSync(modulesDirectory)) continue;
    for (const packageName of conventionalPackageNamesIn(modulesDirectory)) {
      // The nearest copy is the one an import would load.
      if (seen.has(packageName)) continue;
      seen.add(packageName);
      const packageDirectory = path.join(modulesDirectory, ...packageName.split('/'));
      found.push(await inspectPackage(resolver, packageName, packageDirectory));
    }
  }
  return found;
}

async function inspectPackage(resolver: ReturnType<typeof createPackageResolver>, packageName: string, packageDirectory: string): Promise<InstalledPackage> {
  // Every name the listing gives is a conventional one.
  const kind = shortNameOf(packageName)!.kind;
  const base = { packageName, version: packageVersion(packageDirectory), kind, packageDirectory };
  try {
    const resolved = kind === 'env' ? await resolver.resolveEnvironmentPackage(packageName) : await resolver.resolveBackendPackage(packageName);
    const manifest = resolved.module.manifest;
    const supported = isSupportedSpecificationVersion('package-manifest', manifest.specificationVersion);
    return {
      ...base,
      id: manifest.id,
      specificationVersion: manifest.specificationVersion,
      credentialVariables: manifest.credentials?.variables ?? [],
      ok: supported,
      problem: supported
        ? undefined
        : `declares package specification ${manifest.specificationVersion}; this release supports ${SUPPORTED_SPECIFICATION_VERSIONS['package-manifest'].join(', ')}`,
    };
  } catch (error) {
    return {
      ...base,
      id: undefined,
      specificationVersion: undefined,
      credentialVariables: [],
      ok: false,
      problem: error instanceof Error ? error.message : String(error),
    };
  }
}

function packageVersion(packageDirectory: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(packageDirectory, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}
