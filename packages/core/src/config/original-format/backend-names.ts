/**
 * The original's backend names and the package each one is found in here: the name map that finds
 * the package, the one part of the original's backend keys that core keeps
 * (docs/adr/0008-backend-packages-own-their-original-config-keys.md). The original had one backend
 * per provider flavour; ours has one package per provider with presets (openai: Azure, Qwen,
 * MiniMax, any OpenAI-compatible server) and one per agent CLI. What a name implies inside its
 * package's section (openai_chat → preset azure, claude_chat → chat mode) the package declares in
 * its manifest's `originalConfig.backendNames`.
 */
export interface TranslatedBackend {
  /** Our backend id (the package's). */
  id: string;
  /** The original's canonical name: what the package's declaration is keyed on, and named in messages. */
  original: string;
}

const AZURE: TranslatedBackend = { id: 'openai', original: 'openai_chat' };
const COMPATIBLE: TranslatedBackend = { id: 'openai', original: 'openai_compatible' };
const QWEN: TranslatedBackend = { id: 'openai', original: 'qwen_chat' };
const MINIMAX: TranslatedBackend = { id: 'openai', original: 'minimax_chat' };
const CLAUDE_CODE: TranslatedBackend = { id: 'claude-code', original: 'claude_code_exec' };
const CLAUDE_CHAT: TranslatedBackend = { id: 'claude-code', original: 'claude_chat' };
const CODEX: TranslatedBackend = { id: 'codex', original: 'codex_exec' };
const CURSOR: TranslatedBackend = { id: 'cursor', original: 'cursor_exec' };
const COPILOT_EXEC: TranslatedBackend = { id: 'copilot', original: 'copilot_exec' };
const COPILOT_CHAT: TranslatedBackend = { id: 'copilot', original: 'copilot_chat' };
const OPENCODE: TranslatedBackend = { id: 'opencode', original: 'opencode_cli' };
const PI: TranslatedBackend = { id: 'pi', original: 'pi' };

/**
 * Names (and the original's aliases of them, upstream-backends §1.1) that only the original
 * used. Names that are also ours — `openai`, `anthropic`, `codex`, `cursor`, `copilot` — are not
 * here: a config means ours by them (see ORIGINAL_MEANING_OF_OUR_NAMES for the two that changed).
 */
const ORIGINAL_BACKEND_NAMES: Readonly<Record<string, TranslatedBackend>> = {
  openai_chat: AZURE,
  azure_openai: AZURE,
  azure: AZURE,
  'azure-openai': AZURE,
  openai_compatible: COMPATIBLE,
  openai_compatible_chat: COMPATIBLE,
  'openai-compatible': COMPATIBLE,
  compat: COMPATIBLE,
  qwen_chat: QWEN,
  qwen: QWEN,
  minimax_chat: MINIMAX,
  minimax: MINIMAX,
  claude_code_exec: CLAUDE_CODE,
  claude_chat: CLAUDE_CHAT,
  claude: CLAUDE_CHAT,
  codex_exec: CODEX,
  cursor_exec: CURSOR,
  cursor_agent: CURSOR,
  copilot_exec: COPILOT_EXEC,
  copilot_chat: COPILOT_CHAT,
  copilot_cli: COPILOT_CHAT,
  github_copilot: COPILOT_CHAT,
  opencode_cli: OPENCODE,
  'opencode-cli': OPENCODE,
  // The sleep engine's aliases of its Pi backend (upstream-sleep §5); `pi` itself is ours too.
  pi_cli: PI,
  pi_coding_agent: PI,
  'pi-coding-agent': PI,
};

/** The original's meaning of two names that mean something else here. */
export const ORIGINAL_MEANING_OF_OUR_NAMES: Readonly<Record<string, { originalMeaning: string; ours: string; equivalent: string }>> = {
  openai: { originalMeaning: 'the Codex CLI (codex_exec)', ours: 'the OpenAI API', equivalent: 'codex' },
  anthropic: { originalMeaning: 'the Claude CLI used as a chat model (claude_chat)', ours: 'the Anthropic API', equivalent: 'claude-code' },
};

/** Our translation of an original backend name, or undefined when the name is ours (or unknown). */
export function translateBackendName(name: string): TranslatedBackend | undefined {
  return ORIGINAL_BACKEND_NAMES[name.trim().toLowerCase()];
}

/** Our backend for a name as it stands in a config: the translation, or the name as ours. */
export function backendOf(name: string): TranslatedBackend {
  return translateBackendName(name) ?? { id: name.trim(), original: name.trim() };
}

type RolePair = { optimizer: string; target: string };

/**
 * The original's high-level `model.backend` label set both roles at once (upstream-backends
 * §1.1); a role still unset (or at the default openai_chat) took the label's choice. Our config
 * names each role's backend, so the label is translated into the two role keys and retired.
 */
const BACKEND_LABELS: Readonly<Record<string, RolePair>> = {
  azure_openai: { optimizer: 'openai_chat', target: 'openai_chat' },
  openai_chat: { optimizer: 'openai_chat', target: 'openai_chat' },
  claude_chat: { optimizer: 'claude_chat', target: 'claude_chat' },
  codex: { optimizer: 'codex_exec', target: 'codex_exec' },
  codex_exec: { optimizer: 'codex_exec', target: 'codex_exec' },
  claude_code_exec: { optimizer: 'openai_chat', target: 'claude_code_exec' },
  cursor_exec: { optimizer: 'openai_chat', target: 'cursor_exec' },
  copilot_chat: { optimizer: 'copilot_chat', target: 'copilot_chat' },
  copilot_exec: { optimizer: 'openai_chat', target: 'copilot_exec' },
  qwen_chat: { optimizer: 'openai_chat', target: 'qwen_chat' },
  minimax_chat: { optimizer: 'openai_chat', target: 'minimax_chat' },
  openai_compatible: { optimizer: 'openai_compatible', target: 'openai_compatible' },
};

/** The original's label aliases, applied before the table (here `openai` does mean Codex). */
const LABEL_ALIASES: Readonly<Record<string, string>> = {
  azure: 'azure_openai',
  'azure-openai': 'azure_openai',
  openai: 'codex',
  claude: 'claude_chat',
  anthropic: 'claude_chat',
  cursor: 'cursor_exec',
  cursor_agent: 'cursor_exec',
  copilot: 'copilot_chat',
  copilot_cli: 'copilot_chat',
  github_copilot: 'copilot_chat',
  qwen: 'qwen_chat',
  minimax: 'minimax_chat',
  openai_compatible_chat: 'openai_compatible',
  'openai-compatible': 'openai_compatible',
  compat: 'openai_compatible',
};

/** The role backends (original names) a `model.backend` label stands for, or undefined if unknown. */
export function rolesOfBackendLabel(label: string): RolePair | undefined {
  const spelled = label.trim().toLowerCase();
  return BACKEND_LABELS[LABEL_ALIASES[spelled] ?? spelled];
}

/** Labels equivalent to the original's default, which never changed anything. */
export function isDefaultBackendLabel(label: string): boolean {
  const roles = rolesOfBackendLabel(label);
  return roles?.optimizer === 'openai_chat' && roles.target === 'openai_chat';
}

/** Whether a role value counted as "unset" for the label in the original (empty or the default). */
export function isUnsetRole(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'string') return false;
  const translated = translateBackendName(value);
  return value.trim() === '' || translated === AZURE;
}

/** The original's OpenAI default model names, which it replaced by the backend's default elsewhere. */
export const OPENAI_DEFAULT_MODEL_NAMES: ReadonlySet<string> = new Set(['gpt-5.4', 'gpt-5.5']);

/** Original backends for which the original swapped the OpenAI default model name out. */
export const BACKENDS_WITH_OWN_DEFAULT_MODEL: ReadonlySet<string> = new Set([
  'claude_chat',
  'claude_code_exec',
  'qwen_chat',
  'minimax_chat',
  'cursor_exec',
  'copilot_chat',
  'copilot_exec',
]);
