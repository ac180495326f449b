import { OPENCODE_AGENT_NAME, OPENCODE_MODEL_PROVIDER_ID } from './provider.js';

/** The session title of every run: with a title given, OpenCode makes no title-generation request. */
export const OPENCODE_SESSION_TITLE = 'skillopt';

export interface OpencodeExecution {
  modelId: string;
  /** OpenCode's working root (`--dir`): the run's workspace, or an empty folder for a chat call. */
  workingDirectory: string;
  /** `--variant`, the provider's reasoning effort; absent: the model's default. */
  variant?: string | undefined;
}

/**
 * The argument vector of one `opencode run`, with the prompt read from stdin: machine-readable
 * events on stdout (`--format json`), no external plugins (`--pure`), our agent and our provider's
 * model, and a title so that no extra request is made to name the session.
 */
export function opencodeRunArguments(execution: OpencodeExecution): string[] {
  return [
    'run',
    '--pure',
    '--format',
    'json',
    '--dir',
    execution.workingDirectory,
    '--model',
    `${OPENCODE_MODEL_PROVIDER_ID}/${execution.modelId}`,
    '--agent',
    OPENCODE_AGENT_NAME,
    '--title',
    OPENCODE_SESSION_TITLE,
    ...(execution.variant === undefined ? [] : ['--variant', execution.variant]),
  ];
}
