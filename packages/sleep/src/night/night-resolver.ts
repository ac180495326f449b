import { fileURLToPath } from 'node:url';
import type { EnvironmentPackage } from '@skillopt/contract';
import type { PackageResolver } from '@skillopt/core';
import { createNightEnvironment, NIGHT_ENVIRONMENT_ID, nightEnvironmentManifest, type NightEnvironmentConfig } from './night-environment.js';

/** This package as an env package: what run setup is handed for the env `sleep-night`. */
const nightEnvironmentPackage: EnvironmentPackage<NightEnvironmentConfig> = {
  manifest: nightEnvironmentManifest,
  createEnvironment: createNightEnvironment,
};

/**
 * The resolver a night runs with: the user's resolver for backends (installed packages, found by
 * name), and this package for the night's own env. So a night goes through core's run setup like
 * any training run, and nothing about a night has to be published as an env package.
 */
export function withNightEnvironment(resolver: PackageResolver): PackageResolver {
  const entryFile = fileURLToPath(import.meta.url);
  return {
    searchDirectories: resolver.searchDirectories,
    resolveBackendPackage: (name) => resolver.resolveBackendPackage(name),
    async resolveEnvironmentPackage(name) {
      if (name !== NIGHT_ENVIRONMENT_ID) return resolver.resolveEnvironmentPackage(name);
      return {
        kind: 'env',
        requestedName: name,
        packageName: '@skillopt/sleep',
        packageDirectory: entryFile,
        entryFile,
        foundFrom: entryFile,
        module: nightEnvironmentPackage as EnvironmentPackage,
      };
    },
  };
}
