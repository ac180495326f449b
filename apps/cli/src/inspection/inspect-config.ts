import type { BackendPackage, EnvironmentPackage, SkillOptError } from '@skillopt/contract';
import { resolveConfigWithPackages, type ResolvedConfig, type ResolvedPackage } from '@skillopt/core';
import { runConfigRequestOf, type CommandConfigFlags } from '../run-setup/command-config.js';

/** A package the config names, and whether it was found. */
export interface ConfigPackage {
  kind: 'env' | 'backend';
  /** The name as the config gives it (`searchqa`, `sim`). */
  name: string;
  /** The package that was loaded, when it was. */
  packageName?: string | undefined;
  packageDirectory?: string | undefined;
  /** Why it could not be used: not installed (with the npm install) or not a valid package. */
  problem?: string | undefined;
  installCommand?: string | undefined;
}

export interface InspectedConfig extends ResolvedConfig {
  packages: ConfigPackage[];
  /** Whether every package the config names was resolved (the same result `train` would get). */
  complete: boolean;
}

/**
 * The configuration as `skillopt train` resolves it, for commands that only look at it. Where an
 * env or backend package is missing or unusable, `train` would refuse; here the config is resolved
 * anyway with the schemas of the packages that are installed, and each missing one is reported
 * with the `npm install` that fixes it instead of stopping the command.
 */
export async function inspectConfig(flags: CommandConfigFlags): Promise<InspectedConfig> {
  const { environmentPackage, backendPackages, problems, ...resolved } = await resolveConfigWithPackages(await runConfigRequestOf(flags));
  const packages: ConfigPackage[] = [
    ...(environmentPackage ? [describeResolved('env', resolved.config.env.name, environmentPackage)] : []),
    ...[...backendPackages].map(([name, found]) => describeResolved('backend', name, found)),
    ...problems.map((problem) => describeProblem(problem.kind, problem.name, problem.error)),
  ];
  return { ...resolved, packages, complete: problems.length === 0 };
}

function describeResolved(kind: 'env' | 'backend', name: string, found: ResolvedPackage<EnvironmentPackage | BackendPackage>): ConfigPackage {
  return { kind, name, packageName: found.packageName ?? found.entryFile, packageDirectory: found.packageDirectory };
}

function describeProblem(kind: 'env' | 'backend', name: string, error: SkillOptError): ConfigPackage {
  const installCommand = typeof error.details?.installCommand === 'string' ? error.details.installCommand : undefined;
  return { kind, name, problem: error.message, installCommand };
}

/** A one-line warning about a package the config names that could not be used. */
export function describePackageProblem(found: ConfigPackage): string {
  const what = found.kind === 'env' ? `env package "${found.name}"` : `backend package "${found.name}"`;
  const section = found.kind === 'env' ? 'env' : `backends.${found.name}`;
  if (found.installCommand)
    return `the ${what} is not installed, so the ${section} section was not validated against it and \`train\` would refuse this config; install it with: ${found.installCommand}`;
  return `the ${what} cannot be used (${found.problem ?? 'unknown problem'}); its section was not validated against it (this release expects package specification v1)`;
}
