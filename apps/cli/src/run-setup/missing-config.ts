import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import type { RunConfigRequest } from '@skillopt/core';

/**
 * Refuses a run with no config at all (no --config, no discovered project config): core would
 * report only its first missing key (`env: required key is missing`), so this says how to start.
 * `bin` is the command's name; `withConfig` the command line that names a config of one's own.
 */
export function requireSomeConfig(request: RunConfigRequest, options: { bin: string; withConfig: string }): void {
  if (request.layers.length > 0) return;
  const steps: Array<[string, string]> = [
    [`${options.bin} init`, 'a starter project here: a config, a small dataset, a skill'],
    [`${options.bin} demo`, 'train the built-in demo, to see a whole run'],
    [options.withConfig, 'a config file of your own'],
  ];
  const width = Math.max(...steps.map(([command]) => command.length));
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: [
      `no run config: no --config, and no skillopt.config.yaml (or other skillopt.config.*, .skilloptrc*, "skillopt" key in package.json) from ${request.workingDirectory} up. To start:`,
      ...steps.map(([command, note]) => `  ${command.padEnd(width)}   ${note}`),
    ].join('\n'),
  });
}
