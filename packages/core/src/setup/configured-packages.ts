import { ERROR_CODES, SkillOptError, type BackendPackage, type EnvironmentPackage } from '@skillopt/contract';
import { composeConfigSchema } from '../config/compose-config-schema.js';
import type { SkillOptConfig } from '../config/core-config-schema.js';
import { resolveConfig, type ConfigLayerInput, type ResolvedConfig } from '../config/resolve-config.js';
import type { PackageResolver, ResolvedPackage } from '../resolution/package-resolver.js';

/** What a run's configuration is made of, before the packages it names are loaded. */
export interface RunConfigRequest {
  /** The config layers in order: the discovered project config, --config, or a resumed run's config. */
  layers: readonly ConfigLayerInput[];
  /** `--set` and `--cfg-options` values, in order. */
  overrides: readonly string[];
  workingDirectory: string;
  /** Finds env and backend packages by name (the CLI's looks beside the CLI's own install too). */
  resolver: PackageResolver;
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
  environmentPackage: ResolvedPackage<EnvironmentPackage>;
  backendPackages: Map<string, ResolvedPackage<BackendPackage>>;
}

const PACKAGE_PROBLEM_CODES = new Set<string>([ERROR_CODES.packageNotFound, ERROR_CODES.specificationUnsupported, ERROR_CODES.packageInvalid]);

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
 * that could not be loaded pass through unvalidated (with a warning). For inspecting a config
 * (`config print`, `doctor`), where a missing package is reported rather than fatal.
 */
export async function resolveConfigWithPackages(request: RunConfigRequest): Promise<ResolvedConfig & ConfiguredPackages> {
  const options = { layers: [...request.layers], overrides: request.overrides, workingDirectory: request.workingDirectory };
  const firstPass = await resolveConfig(options);
  const packages = await resolveConfiguredPackages(firstPass.config, request.resolver);
  const schema = composeConfigSchema({
    ...(packages.environmentPackage ? { environment: packages.environmentPackage.module.manifest } : {}),
    backends: Object.fromEntries([...packages.backendPackages.values()].map((resolved) => [resolved.module.manifest.id, resolved.module.manifest])),
  });
  return { ...(await resolveConfig({ ...options, schema })), ...packages };
}

/** The configuration of a run: as resolveConfigWithPackages, and every package it names must load. */
export async function resolveRunConfig(request: RunConfigRequest): Promise<ResolvedRunConfig> {
  const resolved = await resolveConfigWithPackages(request);
  const [problem] = resolved.problems;
  if (problem) throw problem.error;
  return { ...resolved, environmentPackage: resolved.environmentPackage as ResolvedPackage<EnvironmentPackage> };
}
