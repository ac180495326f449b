import type { OpencodePermission } from './permissions.js';
import { OPENCODE_AGENT_NAME, OPENCODE_CHILD_API_KEY_VARIABLE, OPENCODE_MODEL_PROVIDER_ID, OPENCODE_PROVIDER_PACKAGE } from './provider.js';

export interface RunConfigOptions {
  /** The Chat Completions base, without a trailing slash. */
  baseUrl: string;
  modelId: string;
  permission: OpencodePermission;
  /** A chat call's system text, which replaces OpenCode's own coding-agent prompt. */
  systemPrompt?: string | undefined;
}

/**
 * The whole OpenCode config of one run, given as OPENCODE_CONFIG_CONTENT: the run depends on
 * nothing but the run config. One provider (ours, OpenAI-compatible, its key read from the child's
 * environment so the config itself holds no secret) with the one model, which serves the small
 * model's calls too; one primary agent with the run's permissions, which is also the default
 * permission set; and everything that would write or fetch beside the run off (snapshots of the
 * workspace into a git store, sharing, updates, LSP servers, formatters).
 */
export function runConfig(options: RunConfigOptions): Record<string, unknown> {
  const model = `${OPENCODE_MODEL_PROVIDER_ID}/${options.modelId}`;
  return {
    provider: {
      [OPENCODE_MODEL_PROVIDER_ID]: {
        npm: OPENCODE_PROVIDER_PACKAGE,
        name: 'SkillOpt',
        options: { baseURL: options.baseUrl, apiKey: `{env:${OPENCODE_CHILD_API_KEY_VARIABLE}}` },
        models: { [options.modelId]: {} },
      },
    },
    model,
    small_model: model,
    agent: {
      [OPENCODE_AGENT_NAME]: {
        mode: 'primary',
        permission: options.permission,
        ...(options.systemPrompt === undefined ? {} : { prompt: options.systemPrompt }),
      },
    },
    permission: options.permission,
    snapshot: false,
    share: 'disabled',
    autoupdate: false,
    lsp: false,
    formatter: false,
  };
}
