// @skillopt/env-docvqa: questions about document page images, answered in an <answer> tag and
// scored by ANLS (hard = ANLS ≥ 0.999, soft = ANLS).
import type { Environment, PackageManifest } from '@skillopt/contract';
import { docVqaConfigSchema, type DocVqaConfig, type DocVqaConfigInput } from './config.js';
import { createDocVqaEnvironment, DOCVQA_ENVIRONMENT_ID } from './environment.js';

export * from './config.js';
export * from './evaluator.js';
export * from './gold-answers.js';
export * from './items.js';
export * from './page-image.js';
export * from './prompt.js';
export {
  createDocVqaEnvironment,
  describeEvaluation,
  DOCVQA_ENVIRONMENT_ID,
  DOCVQA_INITIAL_SKILL,
  rolloutDocVqaItem,
} from './environment.js';

/** What `skillopt train` reads to find, configure and check this env. */
export const manifest: PackageManifest<'env', DocVqaConfig> = {
  kind: 'env',
  id: DOCVQA_ENVIRONMENT_ID,
  specificationVersion: 'v1',
  configSchema: docVqaConfigSchema,
  description: 'DocVQA: questions about document page images (sent as image parts), answered in <answer> tags; hard = ANLS ≥ 0.999, soft = ANLS.',
};

/** The package's factory: `config` is the run config's `env` section. */
export function createEnvironment(config: DocVqaConfigInput | DocVqaConfig = {}): Environment {
  return createDocVqaEnvironment(config);
}
