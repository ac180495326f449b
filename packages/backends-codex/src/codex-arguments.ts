import type { CodexReasoningEffort, SandboxMode } from './config-schema.js';
import { CODEX_CHILD_API_KEY_VARIABLE, CODEX_MODEL_PROVIDER_ID } from './provider.js';
import type { CodexRoleSettings } from './role-settings.js';
import { tomlString } from './toml-string.js';

/** What one `codex exec` is started for. */
export interface CodexExecution {
  settings: CodexRoleSettings;
  /** Codex's working root (`--cd`): the run's workspace, or an empty folder for a chat call. */
  workingDirectory: string;
  sandbox: SandboxMode;
  /** A chat call's own effort wins over the configured one; absent: the configured one, if any. */
  reasoningEffort?: CodexReasoningEffort | undefined;
  /** A chat call: Codex's tools off, its skill listing out of the context. */
  chat?: boolean;
  /**
   * Whether Codex lists its skills for the model. Only a skill in the skills folder needs the
   * listing; otherwise it names nothing but Codex's own bundled skills, and the paths of this
   * run's temporary CODEX_HOME, which would make the same task read differently on every run.
   */
  skillListing?: boolean;
  /** A chat call's system text, sent as Codex's developer instructions. */
  developerInstructions?: string | undefined;
  /** A JSON Schema file the final message must match (`--output-schema`). */
  outputSchemaFile?: string | undefined;
}

/**
 * Codex features a chat call turns off, so the model answers from the prompt alone: the shell, sub
 * agents, goals and image generation. (Codex keeps `request_user_input` and `view_image`, which
 * nothing can answer or use in an empty read-only folder.)
 */
const CHAT_DISABLED_FEATURES = ['shell_tool', 'multi_agent', 'goals', 'image_generation'] as const;

/** Side traffic Codex starts on its own (analytics, plugin and app catalogues), off for every run. */
const QUIET_SETTINGS = ['analytics.enabled=false', 'features.plugins=false', 'features.apps=false'] as const;

/**
 * The argument vector of one `codex exec`, with the prompt read from stdin (`-`): machine-readable
 * events on stdout (`--json`), no session files (`--ephemeral`), no git repository needed, and
 * every setting that matters passed as a flag or a `-c` override rather than read from a config
 * file, so a run depends on nothing but the run config. The model provider is our own
 * (`skillopt`), pointed at the role's base URL, with Codex's own request retries off: a failed
 * call is retried by the layer that owns it (core for an agent run, this package for a chat call).
 */
export function codexExecArguments(execution: CodexExecution): string[] {
  const { settings } = execution;
  const provider = [
    `name=${tomlString('SkillOpt')}`,
    `base_url=${tomlString(settings.baseUrl)}`,
    `env_key=${tomlString(CODEX_CHILD_API_KEY_VARIABLE)}`,
    `wire_api=${tomlString('responses')}`,
    'request_max_retries=0',
    'stream_max_retries=0',
  ].join(',');
  const effort = execution.reasoningEffort ?? settings.reasoningEffort;
  const overrides = [
    `model_provider=${tomlString(CODEX_MODEL_PROVIDER_ID)}`,
    `model_providers.${CODEX_MODEL_PROVIDER_ID}={${provider}}`,
    `approval_policy=${tomlString(settings.approvalPolicy)}`,
    `sandbox_workspace_write.network_access=${settings.networkAccess}`,
    `web_search=${tomlString(settings.webSearch ? 'live' : 'disabled')}`,
    ...QUIET_SETTINGS,
    ...(effort === undefined ? [] : [`model_reasoning_effort=${tomlString(effort)}`]),
    ...(execution.developerInstructions === undefined ? [] : [`developer_instructions=${tomlString(execution.developerInstructions)}`]),
    ...(execution.chat ? CHAT_DISABLED_FEATURES.map((feature) => `features.${feature}=false`) : []),
    ...(execution.chat || execution.skillListing !== true ? ['skills.include_instructions=false'] : []),
    ...Object.entries(settings.configOverrides).map(([key, value]) => `${key}=${value}`),
  ];
  return [
    'exec',
    '--json',
    '--ephemeral',
    '--skip-git-repo-check',
    '--color',
    'never',
    '--cd',
    execution.workingDirectory,
    '--sandbox',
    execution.sandbox,
    '--model',
    settings.modelId,
    ...overrides.flatMap((override) => ['-c', override]),
    ...(execution.outputSchemaFile === undefined ? [] : ['--output-schema', execution.outputSchemaFile]),
    '-',
  ];
}
