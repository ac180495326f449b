/**
 * The original kept every backend's settings as flat keys of its `model` section
 * (`model.azure_openai_endpoint`, `model.target_qwen_chat_base_url`, `model.codex_exec_sandbox`,
 * upstream-core §7.3 and upstream-backends §1.3–1.10). Ours live in the backend's own section,
 * `backends.<id>`, validated by that backend's package. This table says where each goes.
 */

export type OpenAiPreset = 'azure' | 'qwen' | 'minimax';

export interface BackendKeyFamily {
  /** A name for messages: the original's backend this family configured. */
  name: string;
  /** The prefix of the original's keys, e.g. `azure_openai_`. */
  prefix: string;
  /** Our backend id whose section receives the keys. */
  backendId: string;
  /** For the openai backend: the provider preset these keys configure. */
  preset?: OpenAiPreset;
  /** Whether `optimizer_<prefix>…` / `target_<prefix>…` role variants exist. */
  roleVariants: boolean;
  /** Our key for an original key suffix, when it is not the suffix itself. */
  renames?: Readonly<Record<string, string>>;
  /**
   * The values the original's base YAML shipped for these keys. A config that inherited them
   * did not choose them, so dropping them (when no role uses this backend) needs no warning.
   */
  shippedDefaults?: Readonly<Record<string, unknown>>;
  /** Suffixes the original itself deprecated; they are dropped with a warning. */
  retired?: Readonly<Record<string, string>>;
}

export const BACKEND_KEY_FAMILIES: readonly BackendKeyFamily[] = [
  {
    name: 'azure_openai',
    prefix: 'azure_openai_',
    backendId: 'openai',
    preset: 'azure',
    roleVariants: true,
    shippedDefaults: { api_version: '2024-12-01-preview', ad_scope: 'https://cognitiveservices.azure.com/.default' },
  },
  { name: 'qwen_chat', prefix: 'qwen_chat_', backendId: 'openai', preset: 'qwen', roleVariants: true },
  {
    name: 'minimax_chat',
    prefix: 'minimax_',
    backendId: 'openai',
    preset: 'minimax',
    roleVariants: true,
    shippedDefaults: { model: 'MiniMax-M3', temperature: '0.7', max_tokens: '8000', enable_thinking: 'false' },
  },
  {
    name: 'codex_exec',
    prefix: 'codex_exec_',
    backendId: 'codex',
    roleVariants: false,
    retired: { full_auto: 'the original had already deprecated it and never passed it on; use codex_exec_sandbox / backends.codex.sandbox' },
  },
  {
    name: 'claude_code_exec',
    prefix: 'claude_code_exec_',
    backendId: 'claude-code',
    roleVariants: false,
    shippedDefaults: { path: 'claude', use_sdk: 'auto', effort: 'medium', max_thinking_tokens: 16384 },
  },
  { name: 'cursor_exec', prefix: 'cursor_exec_', backendId: 'cursor', roleVariants: false },
  { name: 'copilot_exec', prefix: 'copilot_exec_', backendId: 'copilot', roleVariants: false },
  {
    name: 'copilot_chat',
    prefix: 'copilot_chat_',
    backendId: 'copilot',
    roleVariants: false,
    // The chat models were per role; ours are role sub-sections of the backend's section.
    renames: { optimizer_model: 'optimizer.model', target_model: 'target.model' },
  },
];

/** Whole-key spellings of Codex settings the original accepted (upstream-core §7.5). */
const CODEX_KEY_ALIASES: Readonly<Record<string, string>> = {
  codex_path: 'path',
  codex_cli_bin: 'path',
  codex_bin: 'path',
  sandbox: 'sandbox',
  codex_sandbox: 'sandbox',
};

export interface BackendKeyMatch {
  family: BackendKeyFamily;
  /** Set for a role variant (`target_azure_openai_endpoint`). */
  role?: 'optimizer' | 'target';
  /** The original key without prefix and role, e.g. `endpoint`. */
  suffix: string;
  /** Our key inside the backend section (may be dotted, e.g. `target.model`). */
  key: string;
}

const CODEX = BACKEND_KEY_FAMILIES.find((family) => family.name === 'codex_exec') as BackendKeyFamily;

/** Which family an original `model.*` key belongs to, if any. */
export function matchBackendKey(key: string): BackendKeyMatch | undefined {
  const alias = CODEX_KEY_ALIASES[key];
  if (alias !== undefined) return { family: CODEX, suffix: alias, key: alias };
  for (const role of [undefined, 'optimizer', 'target'] as const) {
    const rest = role === undefined ? key : key.startsWith(`${role}_`) ? key.slice(role.length + 1) : undefined;
    if (rest === undefined) continue;
    for (const family of BACKEND_KEY_FAMILIES) {
      if (!rest.startsWith(family.prefix) || rest.length === family.prefix.length) continue;
      if (role !== undefined && !family.roleVariants) continue;
      const suffix = rest.slice(family.prefix.length);
      const key = family.renames?.[suffix] ?? suffix;
      return role === undefined ? { family, suffix, key } : { family, role, suffix, key };
    }
  }
  return undefined;
}

/** The legacy top-level Azure keys the original's CLI copied into `azure_openai_*`. */
export const LEGACY_AZURE_KEYS: Readonly<Record<string, string>> = {
  azure_endpoint: 'azure_openai_endpoint',
  azure_api_version: 'azure_openai_api_version',
  azure_api_key: 'azure_openai_api_key',
};
