// @skillopt/env-searchqa: open-domain questions answered in an <answer> tag, scored by SQuAD exact
// match (hard) and token F1 (soft).
import type { Environment, PackageManifest } from '@skillopt/contract';
import { searchQaConfigSchema, type SearchQaConfig, type SearchQaConfigInput } from './config.js';
import { createSearchQaEnvironment, SEARCHQA_ENVIRONMENT_ID } from './environment.js';

export { parseSearchQaConfig, type SearchQaConfig, type SearchQaConfigInput, searchQaConfigSchema } from './config.js';
export { type AnswerSource, diagnoseMismatch, scoreSearchQaReply, type SearchQaScore, substringMatch } from './evaluator.js';
export {
  DEMO_ANSWER_TYPES,
  type DemoAnswerType,
  loadSearchQaSplitDirectory,
  SEARCHQA_TASK_TYPE,
  searchQaItemMapper,
  type SearchQaRawItem,
  searchQaRawItemSchema,
  type SearchQaTaskItem,
} from './items.js';
export { ANSWER_FORMAT_INSTRUCTION, buildSystemPrompt, buildUserPrompt, truncateContext } from './prompt.js';
export {
  createSearchQaEnvironment,
  describeEvaluation,
  rolloutSearchQaItem,
  SEARCHQA_ENVIRONMENT_ID,
  SEARCHQA_INITIAL_SKILL,
} from './environment.js';

/** What `skillopt train` reads to find, configure and check this env. */
export const manifest: PackageManifest<'env', SearchQaConfig> = {
  kind: 'env',
  id: SEARCHQA_ENVIRONMENT_ID,
  specificationVersion: 'v1',
  configSchema: searchQaConfigSchema,
  description: 'SearchQA: open-domain questions (optionally with search snippets), answered in <answer> tags; hard = exact match, soft = token F1.',
};

/** The package's factory: `config` is the run config's `env` section. */
export function createEnvironment(config: SearchQaConfigInput | SearchQaConfig = {}): Environment {
  return createSearchQaEnvironment(config);
}
