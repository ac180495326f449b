import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ConfigLayerInput } from '@skillopt/core';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';

/** The name of Sleep's own config file in its state folder. */
export const SLEEP_CONFIG_FILE = 'config.json';

/**
 * The config layers of a night, lowest first: Sleep's own `<state folder>/config.json` when it
 * exists — where a plugin's installer records the backend the user chose, and where anyone may
 * keep settings for every night — then the `--config` file. `--set` stays above both.
 */
export function sleepConfigLayers(request: {
  configFile?: string | undefined;
  stateDirectory?: string | undefined;
  environment?: Readonly<Record<string, string | undefined>>;
}): ConfigLayerInput[] {
  const stateDirectory = request.stateDirectory === undefined ? defaultStateDirectory(request.environment) : path.resolve(request.stateDirectory);
  const ownConfig = path.join(stateDirectory, SLEEP_CONFIG_FILE);
  return [...(existsSync(ownConfig) ? [{ file: ownConfig }] : []), ...(request.configFile === undefined ? [] : [{ file: request.configFile }])];
}
