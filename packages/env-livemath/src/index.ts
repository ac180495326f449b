// @skillopt/env-livemath: LiveMathematicianBench, multiple-choice questions on recent research
// mathematics, answered with a letter in an <answer> tag; hard = soft = 1 for the correct choice.
import type { Environment, PackageManifest } from '@skillopt/contract';
import { liveMathConfigSchema, type LiveMathConfig, type LiveMathConfigInput } from './config.js';
import { createLiveMathEnvironment, LIVEMATH_ENVIRONMENT_ID } from './environment.js';

export * from './config.js';
export * from './evaluator.js';
export * from './items.js';
export * from './prompt.js';
export {
  createLiveMathEnvironment,
  describeEvaluation,
  rolloutLiveMathItem,
  LIVEMATH_ENVIRONMENT_ID,
  LIVEMATH_INITIAL_SKILL,
} from './environment.js';

/** What `skillopt train` reads to find, configure and check this env. */
export const manifest: PackageManifest<'env', LiveMathConfig> = {
  kind: 'env',
  id: LIVEMATH_ENVIRONMENT_ID,
  specificationVersion: 'v1',
  configSchema: liveMathConfigSchema,
  description:
    'LiveMathematicianBench: multiple-choice questions on recent research mathematics, answered with a letter in <answer> tags; hard = soft = 1 for the correct choice.',
};

/** The package's factory: `config` is the run config's `env` section. */
export function createEnvironment(config: LiveMathConfigInput | LiveMathConfig = {}): Environment {
  return createLiveMathEnvironment(config);
}
