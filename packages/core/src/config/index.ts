// The configuration of a run: loading YAML with `_base_`, overrides, core's schema composed with
// the installed packages', validation with suggestions, the original's format, secrets, provenance.
export type { ConfigTree } from './config-tree.js';
export type { ConfigWarning, ConfigWarningCode } from './config-warning.js';
export { parseConfigYaml } from './yaml-config-text.js';
export { BASE_KEY, loadConfigFile, loadConfigLayers, type ConfigFileLayer, type LoadedConfigFile } from './load-config-file.js';
export { deepMerge } from './deep-merge.js';
export { applyOverrides, castOverrideValue, parseOverride, type ConfigOverride } from './config-override.js';
export {
  budgetSectionSchema,
  CONFIG_SECTIONS,
  coreConfigSchema,
  envSectionSchema,
  evaluationSectionSchema,
  gradientSectionSchema,
  modelSectionSchema,
  optimizerSectionSchema,
  REASONING_EFFORTS,
  runSectionSchema,
  trainSectionSchema,
  type ConfigSectionName,
  type SkillOptConfig,
  type SkillOptConfigInput,
} from './core-config-schema.js';
export { VALUE_ALIASES } from './value-aliases.js';
export { composeConfigSchema, type ComposeConfigSchemaOptions, type ComposedConfigSchema } from './compose-config-schema.js';
export { backendSectionFor, environmentSectionFor } from './package-sections.js';
export { formatProblems, validateConfig, type ConfigProblem, type ValidateConfigOptions, type ValidatedConfig } from './validate-config.js';
export { editDistance, nearestWord } from './did-you-mean.js';
export { dropConfigSecrets } from './drop-config-secrets.js';
export {
  translateOriginalConfig,
  type ConfigKeyMove,
  type TranslatedConfig,
  type TranslateOriginalConfigOptions,
} from './original-format/translate-original-config.js';
export { liftFlatLegacyKeys } from './original-format/flat-keys.js';
export { describeConfigSource, type ConfigValueSource } from './config-provenance.js';
export { resolveConfig, type ConfigLayerInput, type ResolveConfigOptions, type ResolvedConfig } from './resolve-config.js';
export { listConfigKeys, type ConfigKeyReference } from './config-key-reference.js';
export { isEnvPathKey, resolveConfigPaths, type ResolveConfigPathsOptions } from './resolve-config-paths.js';
