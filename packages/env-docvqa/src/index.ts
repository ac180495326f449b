// @skillopt/env-docvqa: questions about document page images, answered in an <answer> tag and
// scored by ANLS (hard = ANLS ≥ 0.999, soft = ANLS).
import type { Environment, PackageManifest } from '@skillopt/contract';
import { docVqaConfigSchema, type DocVqaConfig, type DocVqaConfigInput } from './config.js';
import { createDocVqaEnvironment, DOCVQA_ENVIRONMENT_ID } from './environment.js';

export { type DocVqaConfig, type DocVqaConfigInput, docVqaConfigSchema, IMAGE_DETAILS, type ImageDetail, parseDocVqaConfig } from './config.js';
export {
  diagnoseDocVqaMismatch,
  DOCVQA_HARD_THRESHOLD,
  type DocVqaAnswerSource,
  type DocVqaExtractedAnswer,
  type DocVqaScore,
  extractDocVqaAnswer,
  scoreDocVqaReply,
} from './evaluator.js';
export { parseGoldAnswers, parsePythonLiteral, PythonLiteralSyntaxError } from './gold-answers.js';
export {
  assertPageImagesExist,
  createDocVqaItemMapper,
  DOCUMENT_PATH_MARKER,
  DOCVQA_TASK_TYPE,
  type DocVqaRawItem,
  docVqaRawItemSchema,
  type DocVqaTaskItem,
  splitDocumentPath,
} from './items.js';
export {
  describePageImage,
  PAGE_IMAGE_MEDIA_TYPES,
  type PageImage,
  type PageImageMediaType,
  pageImagePart,
  readPageImage,
  sniffImageMediaType,
} from './page-image.js';
export { ANSWER_FORMAT_INSTRUCTION, buildSystemPrompt, buildUserText } from './prompt.js';
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
