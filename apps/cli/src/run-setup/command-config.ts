import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPackageResolver, type ConfigLayerInput, type RunConfigRequest } from '@skillopt/core';
import { discoverProjectConfig } from './project-config.js';

/** What a command's flags say about its configuration. */
export interface CommandConfigFlags {
  /** `--config`; absent: the discovered project config alone. */
  configFile?: string;
  /** The demo's config stands alone: a project config around it would change its figures. */
  ignoreProjectConfig?: boolean;
  /** `--set` and `--cfg-options` values, in order. */
  overrides: readonly string[];
  workingDirectory: string;
}

/** The directory of the CLI's own installation: packages installed beside it are found too. */
export function cliInstallDirectory(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
}

/**
 * Core's run-config request for a command: the CLI's part of run setup is discovery (the project
 * config cosmiconfig finds, then --config on top), the flags, and a package resolver that also
 * looks beside the CLI's own installation. Core resolves, validates and creates everything else
 * (prepareRun, resolveConfigWithPackages).
 */
export async function runConfigRequestOf(flags: CommandConfigFlags): Promise<RunConfigRequest> {
  const layers: ConfigLayerInput[] = [];
  const discovered = flags.ignoreProjectConfig ? undefined : await discoverProjectConfig(flags.workingDirectory);
  if (discovered) layers.push(discovered);
  if (flags.configFile) layers.push({ file: path.resolve(flags.workingDirectory, flags.configFile) });
  return {
    layers,
    overrides: flags.overrides,
    workingDirectory: flags.workingDirectory,
    resolver: createPackageResolver({ workingDirectory: flags.workingDirectory, fallbackDirectories: [cliInstallDirectory()] }),
  };
}
