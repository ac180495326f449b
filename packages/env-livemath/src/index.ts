// @skillopt/env-livemath: LiveMathematicianBench, multiple-choice questions on recent research
// mathematics, answered with a letter in an <answer> tag; hard = soft = 1 for the correct choice.
import type { Environment, PackageManifest } from '@skillopt/contract';
import { liveMathConfigSchema, type LiveMathConfig, type LiveMathConfigInput } from './config.js';
import { createLiveMathEnvironment, LIVEMATH_ENVIRONMENT_ID } from './environment.js';

export { type LiveMathConfig, type LiveMathConfigInput, liveMathConfigSchema, parseLiveMathConfig } from './config.js';
export { type AnswerSource, type LiveMathScore, scoreLiveMathReply } from './evaluator.js';
export {
  CHOICE_LABELS,
  choiceOrderSeed,
  hasMultipleChoiceQuestion,
  LIVEMATH_TASK_TYPE,
  type LiveMathChoice,
  liveMathItemSchema,
  type LiveMathRawItem,
  type LiveMathTaskItem,
  loadLiveMathRatioSplits,
  loadLiveMathSplitDirectory,
  MONTHLY_FILE_PATTERN,
  normaliseChoiceLabel,
  readLiveMathPoolFile,
  resolvePoolFiles,
  shuffleItemChoices,
  toStoredItem,
} from './items.js';
export { ANSWER_FORMAT_INSTRUCTION, buildSystemPrompt, buildUserPrompt, formatChoices, type UserPromptParts } from './prompt.js';
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
