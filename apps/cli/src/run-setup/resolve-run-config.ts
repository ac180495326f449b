import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, SkillOptError, type BackendPackage, type EnvironmentPackage } from '@skillopt/contract';
import {
  composeConfigSchema,
  createPackageResolver,
  resolveConfig,
  type ConfigLayerInput,
  type PackageResolver,
  type ResolvedConfig,
  type ResolvedPackage,
  type SkillOptConfig,
} from '@skillopt/core';
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

/** The env and backend packages a config names, as far as they could be loaded. */
export interface ConfiguredPackages {
  environmentPackage: ResolvedPackage<EnvironmentPackage> | undefined;
  /** By backend name as the config gives it (`model.target_backend`, `model.optimizer_backend`). */
  backendPackages: Map<string, ResolvedPackage<BackendPackage>>;
  /** Packages that are missing or unusable, each with the error that says why (and how to fix it). */
  problems: Array<{ kind: 'env' | 'backend'; name: string; error: SkillOptError }>;
}

export interface ResolvedRunConfig extends ResolvedConfig {
  resolver: PackageResolver;
  environmentPackage: ResolvedPackage<EnvironmentPackage>;
  backendPackages: Map<string, ResolvedPackage<BackendPackage>>;
}

const PACKAGE_PROBLEM_CODES = new Set<string>([ERROR_CODES.packageNotFound, ERROR_CODES.specificationUnsupported, ERROR_CODES.packageInvalid]);

/** The directory of the CLI's own installation: packages installed beside it are found too. */
export function cliInstallDirectory(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
}

/** The config layers of a request: a resumed run's config, or the discovered project config and --config. */
async function configLayersOf(request: RunConfigRequest): Promise<ConfigLayerInput[]> {
  if (request.baseConfig) return [request.baseConfig];
  const layers: ConfigLayerInput[] = [];
  const discovered = await discoverProjectConfig(request.workingDirectory);
  if (discovered) layers.push(discovered);
  if (request.configFile) layers.push({ file: path.resolve(request.workingDirectory, request.configFile) });
  return layers;
}

function createCliPackageResolver(workingDirectory: string): PackageResolver {
  return createPackageResolver({ workingDirectory, fallbackDirectories: [cliInstallDirectory()] });
}

/**
 * Loads the env and backend packages a config names. A missing or unusable package is recorded as
 * a problem (its error names the `npm install` that fixes it); any other error is thrown.
 */
async function resolveConfiguredPackages(config: SkillOptConfig, resolver: PackageResolver): Promise<ConfiguredPackages> {
  const problems: ConfiguredPackages['problems'] = [];
  const attempt = async <Found>(kind: 'env' | 'backend', name: string, load: () => Promise<Found>): Promise<Found | undefined> => {
    try {
      return await load();
    } catch (error) {
      if (!SkillOptError.isInstance(error) || !PACKAGE_PROBLEM_CODES.has(error.code)) throw error;
      problems.push({ kind, name, error });
      return undefined;
    }
  };
  const environmentPackage = await attempt('env', config.env.name, () => resolver.resolveEnvironmentPackage(config.env.name));
  const backendPackages = new Map<string, ResolvedPackage<BackendPackage>>();
  for (const name of new Set([config.model.target_backend, config.model.optimizer_backend])) {
    const found = await attempt('backend', name, () => resolver.resolveBackendPackage(name));
    if (found) backendPackages.set(name, found);
  }
  return { environmentPackage, backendPackages, problems };
}

/**
 * The configuration in two passes: the first, with core's schema alone, only learns which env and
 * backends the config names; those packages are loaded, and the second pass validates everything
 * against the schema composed from core's keys and the loaded packages' own. Sections of packages
 * that could not be loaded pass through unvalidated (with a warning from core).
 */
export async function resolveConfigWithPackages(request: RunConfigRequest): Promise<ResolvedConfig & ConfiguredPackages & { resolver: PackageResolver }> {
  const options = { layers: await configLayersOf(request), overrides: request.overrides, workingDirectory: request.workingDirectory };
  const firstPass = await resolveConfig(options);
  const resolver = createCliPackageResolver(request.workingDirectory);
  const packages = await resolveConfiguredPackages(firstPass.config, resolver);
  const schema = composeConfigSchema({
    ...(packages.environmentPackage ? { environment: packages.environmentPackage.module.manifest } : {}),
    backends: Object.fromEntries([...packages.backendPackages.values()].map((resolved) => [resolved.module.manifest.id, resolved.module.manifest])),
  });
  return { ...(await resolveConfig({ ...options, schema })), ...packages, resolver };
}

/** The configuration of a run: as resolveConfigWithPackages, and every package it names must load. */
export async function resolveRunConfig(request: RunConfigRequest): Promise<ResolvedRunConfig> {
  const resolved = await resolveConfigWithPackages(request);
  const [problem] = resolved.problems;
  if (problem) throw problem.error;
  return { ...resolved, environmentPackage: resolved.environmentPackage as ResolvedPackage<EnvironmentPackage> };
}
