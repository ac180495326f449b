import type { SandboxSetting } from './config-schema.js';

/** What one `cursor-agent -p` is started for. */
export interface CursorExecution {
  modelId: string;
  /** Cursor's workspace (`--workspace`): the run's, or an empty folder for a chat call. */
  workspace: string;
  /** `write`: the agent may edit its workspace (`--force`, under the sandbox); otherwise Cursor's read-only Ask mode. */
  access: 'read' | 'write';
  /** `--sandbox`; a chat call leaves Cursor's default, having no tools to confine. */
  sandbox?: SandboxSetting;
}

/**
 * The argument vector of one headless Cursor run, with the prompt read from stdin: events on
 * stdout one JSON object a line (`--output-format stream-json`), the workspace trusted without a
 * prompt (`--trust`: nobody could answer one), and either Ask mode (`--mode ask`: it reads, it
 * changes nothing) or, for a run that may edit, `--force` (its tool calls approved but for the
 * denied ones) with the sandbox on.
 */
export function cursorArguments(execution: CursorExecution): string[] {
  return [
    '-p',
    '--output-format',
    'stream-json',
    '--trust',
    '--workspace',
    execution.workspace,
    ...(execution.sandbox === undefined ? [] : ['--sandbox', execution.sandbox]),
    ...(execution.access === 'write' ? ['--force'] : ['--mode', 'ask']),
    '--model',
    execution.modelId,
  ];
}
