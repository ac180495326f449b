import path from 'node:path';
import type { BackendPackage, EnvironmentPackage } from '@skillopt/contract';
import {
  composeConfigSchema,
  createPackageResolver,
  resolveConfig,
  type ConfigLayerInput,
  type PackageResolver,
  type ResolvedConfig,
  type ResolvedPackage,
} from '@skillopt/core';
import { fileURLToPath } from 'node:url';
import { discoverProjectConfig } from './project-config.js';

export interface RunConfigRequest {
  /** `--config`; absent: the discovered project config alone. */
  configFile?: string;
  /** `--set` and `--cfg-options` values, in order. */
  overrides: readonly string[];
  workingDirectory: string;
  /** A config to start from instead of files (a resumed run's config.json). */
  baseConfig?: { name: string; config: unknown; directory: string };
}

export interface ResolvedRunConfig extends ResolvedConfig {
  resolver: PackageResolver;
  environmentPackage: ResolvedPackage<EnvironmentPackage>;
  /** By backend id as the config names it (`model.target_backend`, `model.optimizer_backend`). */
  backendPackages: Map<string, ResolvedPackage<BackendPackage>>;
  /** Where the configuration came from, for messages: the files, or the discovered config. */
  layers: ConfigLayerInput[];
}

/** The directory of the CLI's own installation: packages installed beside it are found too. */
export function cliInstallDirectory(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
}

/**
 * The configuration of a run, in two passes: the first, with core's schema alone, only learns
 * which env and backends the config names; those packages are resolved (with the `npm install`
 * hint when one is missing), and the second pass validates everything against the schema composed
 * from core's keys and the packages' own.
 */
export async function resolveRunConfig(request: RunConfigRequest): Promise<ResolvedRunConfig> {
  const layers: ConfigLayerInput[] = [];
  if (request.baseConfig) layers.push(request.baseConfig);
  else {
    const discovered = await discoverProjectConfig(request.workingDirectory);
    if (discovered) layers.push(discovered);
    if (request.configFile) layers.push({ file: path.resolve(request.workingDirectory, request.configFile) });
  }
  const options = { layers, overrides: request.overrides, workingDirectory: request.workingDirectory };
  const firstPass = await resolveConfig(options);
  const resolver = createPackageResolver({ workingDirectory: request.workingDirectory, fallbackDirectories: [cliInstallDirectory()] });
  const environmentPackage = await resolver.resolveEnvironmentPackage(firstPass.config.env.name);
  const backendPackages = new Map<string, ResolvedPackage<BackendPackage>>();
  for (const name of new Set([firstPass.config.model.target_backend, firstPass.config.model.optimizer_backend]))
    backendPackages.set(name, await resolver.resolveBackendPackage(name));
  const schema = composeConfigSchema({
    environment: environmentPackage.module.manifest,
    backends: Object.fromEntries([...backendPackages.values()].map((resolved) => [resolved.module.manifest.id, resolved.module.manifest])),
  });
  const resolved = await resolveConfig({ ...options, schema });
  return { ...resolved, resolver, environmentPackage, backendPackages, layers };
}
