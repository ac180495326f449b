import { z } from 'zod';
import type { OriginalConfigFormat, PackageManifest } from '@skillopt/contract';

/*
 * Stand-ins for env and backend packages, as a test of core needs them: a manifest whose
 * configSchema is a zod schema written here. They mirror the settings the real packages are
 * expected to have (upstream-envs.md, upstream-backends.md), no more.
 */

export function envManifest(id: string, schema: PackageManifest['configSchema']): PackageManifest<'env'> {
  return { kind: 'env', id, specificationVersion: 'v1', configSchema: schema };
}

export function backendManifest(id: string, schema: PackageManifest['configSchema'], originalConfig?: OriginalConfigFormat): PackageManifest<'backend'> {
  return { kind: 'backend', id, specificationVersion: 'v1', configSchema: schema, ...(originalConfig ? { originalConfig } : {}) };
}

export const searchqaEnv = envManifest(
  'searchqa',
  z.strictObject({
    max_turns: z.number().int().min(1).default(1),
    max_completion_tokens: z.number().int().min(1).default(16384),
    limit: z.number().int().min(0).default(0),
  }),
);

export const spreadsheetbenchEnv = envManifest(
  'spreadsheetbench',
  z.strictObject({
    data_root: z.string().optional(),
    mode: z.enum(['single', 'multi']).default('multi'),
    max_turns: z.number().int().min(1).default(30),
    max_completion_tokens: z.number().int().min(1).default(16384),
  }),
);

const openAiSettings = {
  preset: z.enum(['azure', 'qwen', 'minimax', 'deepseek', 'vllm', 'ollama', 'llama-cpp']).optional(),
  endpoint: z.string().optional(),
  base_url: z.string().optional(),
  api_version: z.string().optional(),
  auth_mode: z.string().optional(),
  ad_scope: z.string().optional(),
  managed_identity_client_id: z.string().optional(),
  thinking_mode: z.enum(['enabled', 'disabled', 'server_default']).optional(),
  timeout_seconds: z.number().positive().default(300),
};

/*
 * The slices of the original's config format the stand-ins declare, as their packages do: the
 * openai one as @skillopt/backends-openai declares it (its own tests check the real one), the
 * others as the harness packages will when they exist.
 */
const openAiOriginalConfig: OriginalConfigFormat = {
  backendNames: { openai_chat: { preset: 'azure' }, qwen_chat: { preset: 'qwen' }, minimax_chat: { preset: 'minimax' } },
  keyFamilies: [
    {
      prefix: 'azure_openai_',
      usedBy: ['openai_chat'],
      shippedDefaults: { api_version: '2024-12-01-preview', ad_scope: 'https://cognitiveservices.azure.com/.default' },
      secretVariables: { shared: 'AZURE_OPENAI_API_KEY', target: 'TARGET_AZURE_OPENAI_API_KEY', optimizer: 'OPTIMIZER_AZURE_OPENAI_API_KEY' },
    },
    {
      prefix: 'qwen_chat_',
      usedBy: ['qwen_chat'],
      secretVariables: { shared: 'QWEN_CHAT_API_KEY', target: 'TARGET_QWEN_CHAT_API_KEY', optimizer: 'OPTIMIZER_QWEN_CHAT_API_KEY' },
    },
    {
      prefix: 'minimax_',
      usedBy: ['minimax_chat'],
      roleModelKeys: { model: 'target' },
      shippedDefaults: { model: 'MiniMax-M3', temperature: '0.7', max_tokens: '8000', enable_thinking: 'false' },
      secretVariables: { shared: 'MINIMAX_API_KEY', target: 'TARGET_MINIMAX_API_KEY', optimizer: 'OPTIMIZER_MINIMAX_API_KEY' },
    },
  ],
};

export const openAiBackend = backendManifest(
  'openai',
  z.strictObject({
    ...openAiSettings,
    optimizer: z.strictObject(openAiSettings).optional(),
    target: z.strictObject(openAiSettings).optional(),
  }),
  openAiOriginalConfig,
);

export const codexBackend = backendManifest(
  'codex',
  z.strictObject({
    path: z.string().default('codex'),
    sandbox: z.enum(['read-only', 'workspace-write', 'danger-full-access']).default('workspace-write'),
  }),
  {
    keyFamilies: [
      {
        prefix: 'codex_exec_',
        retired: { full_auto: 'the original had already deprecated it and never passed it on; use codex_exec_sandbox / backends.codex.sandbox' },
      },
    ],
  },
);

const anySection = z.record(z.string(), z.unknown());

export const claudeCodeBackend = backendManifest('claude-code', anySection, {
  backendNames: { claude_chat: { mode: 'chat' } },
  keyFamilies: [{ prefix: 'claude_code_exec_', shippedDefaults: { path: 'claude', use_sdk: 'auto', effort: 'medium', max_thinking_tokens: 16384 } }],
});

export const copilotBackend = backendManifest('copilot', anySection, {
  backendNames: { copilot_chat: { mode: 'chat' } },
  keyFamilies: [{ prefix: 'copilot_chat_', renames: { optimizer_model: 'optimizer.model', target_model: 'target.model' } }, { prefix: 'copilot_exec_' }],
});

export const cursorBackend = backendManifest('cursor', anySection, { keyFamilies: [{ prefix: 'cursor_exec_' }] });

/** Every stand-in backend by id, as translateOriginalConfig takes them. */
export const STUB_BACKEND_PACKAGES = {
  openai: openAiBackend,
  codex: codexBackend,
  'claude-code': claudeCodeBackend,
  copilot: copilotBackend,
  cursor: cursorBackend,
};
