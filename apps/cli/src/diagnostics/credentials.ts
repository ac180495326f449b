/**
 * The credentials skillopt's backends read from the environment. Only whether each is set is ever
 * reported: a value is never printed, logged or put in JSON, not even in part.
 */
const CREDENTIAL_VARIABLES: ReadonlyArray<{ name: string; usedBy: string }> = [
  { name: 'OPENAI_API_KEY', usedBy: 'OpenAI' },
  { name: 'AZURE_OPENAI_API_KEY', usedBy: 'Azure OpenAI' },
  { name: 'TARGET_AZURE_OPENAI_API_KEY', usedBy: 'Azure OpenAI, target role' },
  { name: 'OPTIMIZER_AZURE_OPENAI_API_KEY', usedBy: 'Azure OpenAI, optimizer role' },
  { name: 'ANTHROPIC_API_KEY', usedBy: 'Anthropic' },
  { name: 'DASHSCOPE_API_KEY', usedBy: 'Qwen (DashScope)' },
  { name: 'QWEN_CHAT_API_KEY', usedBy: 'Qwen' },
  { name: 'MINIMAX_API_KEY', usedBy: 'MiniMax' },
  { name: 'DEEPSEEK_API_KEY', usedBy: 'DeepSeek' },
  { name: 'CODEX_API_KEY', usedBy: 'Codex CLI' },
  { name: 'CURSOR_API_KEY', usedBy: 'Cursor CLI' },
  { name: 'COPILOT_PROVIDER_API_KEY', usedBy: 'Copilot CLI, own key' },
  { name: 'GITHUB_TOKEN', usedBy: 'GitHub Copilot' },
];

export interface CredentialPresence {
  name: string;
  usedBy: string | undefined;
  present: boolean;
}

/** Which credentials are set (non-empty): the known ones, then any other *_API_KEY that is set. */
export function credentialPresence(environment: NodeJS.ProcessEnv = process.env): CredentialPresence[] {
  const isSet = (name: string) => typeof environment[name] === 'string' && (environment[name] as string).trim() !== '';
  const known = new Set(CREDENTIAL_VARIABLES.map((variable) => variable.name));
  const others = Object.keys(environment)
    .filter((name) => !known.has(name) && /_API_KEY$/.test(name) && isSet(name))
    .sort()
    .map((name) => ({ name, usedBy: undefined, present: true }));
  return [...CREDENTIAL_VARIABLES.map((variable) => ({ name: variable.name, usedBy: variable.usedBy, present: isSet(variable.name) })), ...others];
}
