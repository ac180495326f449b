// @skillopt/env-officeqa: questions over office documents, answered with a tool loop (glob, read,
// grep) confined to each item's own files, scored by OfficeQA exact match (hard) and token F1 (soft).
import type { Environment, PackageManifest } from '@skillopt/contract';
import { officeQaConfigSchema, type OfficeQaConfig, type OfficeQaConfigInput } from './config.js';
import { createOfficeQaEnvironment, OFFICEQA_ENVIRONMENT_ID } from './environment.js';
import type { OfficeQaEnvironmentOptions } from './search-setup.js';

export { type OfficeQaConfig, type OfficeQaConfigInput, officeQaConfigSchema, parseOfficeQaConfig } from './config.js';
export { DocumentToolError, type ItemDocument, locateItemDocuments, MAX_DOCUMENT_BYTES, readDocumentText, resolveDocumentRoots } from './corpus.js';
export {
  diagnoseOfficeQaMismatch,
  extractOfficeQaAnswer,
  normaliseOfficeQaAnswer,
  type OfficeQaAnswerSource,
  officeQaExactMatch,
  type OfficeQaScore,
  officeQaTokenF1,
  scoreOfficeQaReply,
} from './evaluator.js';
export {
  canonicalDocumentName,
  documentNameProblem,
  OFFICEQA_TASK_TYPES,
  officeQaItemMapper,
  type OfficeQaRawItem,
  officeQaRawItemSchema,
  type OfficeQaTaskItem,
  type OfficeQaTaskType,
  parseListField,
} from './items.js';
export { buildSystemPrompt, buildUserPrompt, SEARCH_INSTRUCTIONS, TASK_INSTRUCTIONS } from './prompt.js';
export { CUSTOM_HTTP_SEARCH_PROVIDER_ID, type CustomHttpSearchProviderOptions, createCustomHttpSearchProvider } from './custom-http-search-provider.js';
export { SEARCH_MODES, type SearchMode } from './search-mode.js';
export type { SearchProvider, SearchRequestOptions, SearchResult } from './search-provider.js';
export { parseSearchResponse } from './search-response.js';
export type { OfficeQaEnvironmentOptions } from './search-setup.js';
export { renderSearchResults, SEARCH_TOOL, type SearchStatistics } from './search-tool.js';
export {
  DEFAULT_READ_LINES,
  globToRegExp,
  MAX_GREP_MATCHES,
  MAX_READ_LINES,
  OFFICEQA_TOOL_NAMES,
  OFFICEQA_TOOLS,
  runOfficeQaTool,
  type ToolOutcome,
} from './tools.js';
export {
  createOfficeQaEnvironment,
  describeEvaluation,
  OFFICEQA_ENVIRONMENT_ID,
  OFFICEQA_INITIAL_SKILL,
  rolloutOfficeQaItem,
  TRAJECTORY_TOOL_OUTPUT_CHARS,
  TURN_LIMIT_REASON,
} from './environment.js';

/** What `skillopt train` reads to find, configure and check this env. */
export const manifest: PackageManifest<'env', OfficeQaConfig> = {
  kind: 'env',
  id: OFFICEQA_ENVIRONMENT_ID,
  specificationVersion: 'v1',
  configSchema: officeQaConfigSchema,
  description:
    "OfficeQA: questions over office documents, answered with glob/read/grep tools confined to each item's files; hard = exact match, soft = token F1 (OfficeQA normalisation).",
};

/** The package's factory: `config` is the run config's `env` section. */
export function createEnvironment(config: OfficeQaConfigInput | OfficeQaConfig = {}, options: OfficeQaEnvironmentOptions = {}): Environment {
  return createOfficeQaEnvironment(config, options);
}
