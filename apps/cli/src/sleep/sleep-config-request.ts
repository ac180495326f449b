import path from 'node:path';
import type { RunConfigRequest } from '@skillopt/core';
import { type ModelFlags, modelFlagOverrides, sleepConfigLayers } from '@skillopt/sleep';
import { runConfigRequestOf } from '../run-setup/command-config.js';

/**
 * The config a Sleep command's model calls are set up from: Sleep's own config in its state
 * folder (where a plugin's installer records the chosen backend), `--config`, then `--backend` and
 * `--model`, then `--set`, over Sleep's own defaults. A project's training config is not a night's
 * (nor the miner's), so it is not read.
 */
export async function sleepConfigRequest(
  flags: ModelFlags & { config?: string | undefined; set?: string[] | undefined; 'state-dir'?: string | undefined },
  workingDirectory: string,
): Promise<RunConfigRequest> {
  const request = await runConfigRequestOf({
    ignoreProjectConfig: true,
    overrides: [...modelFlagOverrides(flags), ...(flags.set ?? [])],
    workingDirectory,
  });
  const configFile = flags.config ? path.resolve(workingDirectory, flags.config) : undefined;
  const stateDirectory = flags['state-dir'] === undefined ? undefined : path.resolve(workingDirectory, flags['state-dir']);
  return { ...request, layers: sleepConfigLayers({ configFile, stateDirectory }) };
}
