import type { RunConfigRequest } from '@skillopt/core';
import { type ModelFlags, modelFlagOverrides } from '@skillopt/sleep';
import { runConfigRequestOf } from '../run-setup/command-config.js';

/**
 * The config a Sleep command's model calls are set up from: `--config`, then `--backend` and
 * `--model`, then `--set`, over Sleep's own defaults. A project's training config is not a night's
 * (nor the miner's), so it is not read.
 */
export function sleepConfigRequest(
  flags: ModelFlags & { config?: string | undefined; set?: string[] | undefined },
  workingDirectory: string,
): Promise<RunConfigRequest> {
  return runConfigRequestOf({
    ...(flags.config ? { configFile: flags.config } : {}),
    ignoreProjectConfig: true,
    overrides: [...modelFlagOverrides(flags), ...(flags.set ?? [])],
    workingDirectory,
  });
}
