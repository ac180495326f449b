// @skillopt/env-alfworld: ALFWorld's household text games, played through a bridge to the
// ALFWorld/TextWorld engine the user installs (JSON lines over stdio), scored by whether the game was won.
import type { Environment, PackageManifest } from '@skillopt/contract';
import { type AlfWorldConfig, type AlfWorldConfigInput, alfWorldConfigSchema } from './config.js';
import { ALFWORLD_ENVIRONMENT_ID, type AlfWorldEnvironmentOptions, createAlfWorldEnvironment } from './environment.js';

export { type ProjectedAction, projectAction } from './action-projection.js';
export { BridgePool } from './bridge-pool.js';
export { BridgeProcess, type BridgeProcessOptions, type GameState, type LoadGameRequest } from './bridge-process.js';
export { type AlfWorldConfig, type AlfWorldConfigInput, alfWorldConfigSchema, parseAlfWorldConfig } from './config.js';
export {
  ALFWORLD_BRIDGE_SCRIPT,
  ALFWORLD_ENVIRONMENT_ID,
  ALFWORLD_INITIAL_SKILL,
  type AlfWorldEnvironmentOptions,
  createAlfWorldEnvironment,
} from './environment.js';
export { describeEpisodeEnd, type Episode, type EpisodeSettings, playEpisode, TRAJECTORY_REPLY_CHARS } from './episode.js';
export { type AlfWorldRawItem, alfWorldItemMapper, alfWorldRawItemSchema, type AlfWorldTaskItem, resolveGameFile } from './items.js';
export { buildSystemPrompt, buildUserPrompt, goalOf, type PastStep, promptedActions, type StepPrompt, TASK_INSTRUCTIONS } from './prompt.js';
export { readReferenceText } from './reference-text.js';
export { ALFWORLD_TASK_TYPES, type AlfWorldTaskType, taskTypeOfGamePath } from './task-types.js';

/** What `skillopt train` reads to find, configure and check this env. */
export const manifest: PackageManifest<'env', AlfWorldConfig> = {
  kind: 'env',
  id: ALFWORLD_ENVIRONMENT_ID,
  specificationVersion: 'v1',
  configSchema: alfWorldConfigSchema,
  description:
    'ALFWorld: household text games (six task types) played step by step from the admissible actions, through a bridge to the ALFWorld engine you install; hard = soft = won.',
};

/** The package's factory: `config` is the run config's `env` section. */
export function createEnvironment(config: AlfWorldConfigInput | AlfWorldConfig = {}, options: AlfWorldEnvironmentOptions = {}): Environment {
  return createAlfWorldEnvironment(config, options);
}
