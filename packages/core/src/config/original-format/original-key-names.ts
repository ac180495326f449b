/**
 * The part of the original's config format that only finds packages: which prefix of its flat
 * `model.*` keys belongs to which of our backend packages (`model.codex_exec_sandbox` → codex), and
 * the spellings the original itself accepted for some of those keys (upstream-core §7.5). What a
 * key means inside the package's section — its name there, whether it was retired, its shipped
 * default, where its secret lives — is that package's to say, in its manifest's `originalConfig`
 * (see translate-original-config.ts). Core must still recognise every family here, before any
 * package is loaded, so that the first pass over a config knows which packages to load.
 */

export interface OriginalKeyPrefix {
  /** The prefix of the original's keys, e.g. `azure_openai_`. */
  prefix: string;
  /** Our backend package the keys go to. */
  packageId: string;
  /** The original's name for these keys' backend, for messages. */
  name: string;
  /** Whether the original had `optimizer_<prefix>…` / `target_<prefix>…` variants. */
  roleVariants: boolean;
}

export const ORIGINAL_KEY_PREFIXES: readonly OriginalKeyPrefix[] = [
  { prefix: 'azure_openai_', packageId: 'openai', name: 'azure_openai', roleVariants: true },
  { prefix: 'qwen_chat_', packageId: 'openai', name: 'qwen_chat', roleVariants: true },
  { prefix: 'minimax_', packageId: 'openai', name: 'minimax_chat', roleVariants: true },
  { prefix: 'codex_exec_', packageId: 'codex', name: 'codex_exec', roleVariants: false },
  { prefix: 'claude_code_exec_', packageId: 'claude-code', name: 'claude_code_exec', roleVariants: false },
  { prefix: 'cursor_exec_', packageId: 'cursor', name: 'cursor_exec', roleVariants: false },
  { prefix: 'copilot_exec_', packageId: 'copilot', name: 'copilot_exec', roleVariants: false },
  { prefix: 'copilot_chat_', packageId: 'copilot', name: 'copilot_chat', roleVariants: false },
];

/**
 * Other spellings the original accepted for its flat keys, as the prefixed key they stand for: the
 * legacy top-level Azure keys its CLI copied into `azure_openai_*`, and the Codex aliases.
 */
export const ORIGINAL_KEY_SPELLINGS: Readonly<Record<string, string>> = {
  azure_endpoint: 'azure_openai_endpoint',
  azure_api_version: 'azure_openai_api_version',
  azure_api_key: 'azure_openai_api_key',
  codex_path: 'codex_exec_path',
  codex_cli_bin: 'codex_exec_path',
  codex_bin: 'codex_exec_path',
  sandbox: 'codex_exec_sandbox',
  codex_sandbox: 'codex_exec_sandbox',
};

export interface OriginalKeyMatch {
  family: OriginalKeyPrefix;
  /** Set for a role variant (`target_azure_openai_endpoint`). */
  role?: 'optimizer' | 'target';
  /** The key without prefix and role, e.g. `endpoint`. */
  suffix: string;
}

/** Which family an original `model.*` key belongs to, if any. */
export function matchOriginalBackendKey(key: string): OriginalKeyMatch | undefined {
  const spelled = ORIGINAL_KEY_SPELLINGS[key] ?? key;
  for (const role of [undefined, 'optimizer', 'target'] as const) {
    const rest = role === undefined ? spelled : spelled.startsWith(`${role}_`) ? spelled.slice(role.length + 1) : undefined;
    if (rest === undefined) continue;
    for (const family of ORIGINAL_KEY_PREFIXES) {
      if (!rest.startsWith(family.prefix) || rest.length === family.prefix.length) continue;
      if (role !== undefined && !family.roleVariants) continue;
      const suffix = rest.slice(family.prefix.length);
      return role === undefined ? { family, suffix } : { family, role, suffix };
    }
  }
  return undefined;
}
