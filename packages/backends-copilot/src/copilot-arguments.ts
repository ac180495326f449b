import type { CopilotReasoningEffort } from './config-schema.js';
import { COPILOT_API_KEY_VARIABLE } from './provider.js';

/** The file tools a run that may edit its workspace gets beside the configured ones. */
export const WRITE_TOOLS = ['create', 'edit'] as const;

/** The tool that loads a skill of the skills folder, added when the skill is installed there. */
export const SKILL_TOOL = 'skill';

/**
 * The `--available-tools` value of a chat call: a name no tool has. Copilot then sends the model no
 * tools at all, where an empty value would send every one of them.
 */
export const NO_TOOLS = 'skillopt-no-tools';

/** What one Copilot run is started for. */
export interface CopilotExecution {
  /** The tools the model sees (`--available-tools`); never empty. */
  availableTools: readonly string[];
  /** Where Copilot writes its usage report (`--usage-output-file`). */
  usageFile: string;
  reasoningEffort?: CopilotReasoningEffort | undefined;
  /** The run may edit its workspace: Copilot's file writes are approved (`--allow-tool=write`). */
  write?: boolean;
  /** Every tool approved without asking (`--allow-all-tools`); only for a write run whose config allows it. */
  allowAllTools?: boolean;
  /** A chat call: no custom instructions are loaded (its folder is empty anyway). */
  chat?: boolean;
}

/**
 * The argument vector of one `copilot` run, with the prompt read from stdin: JSON lines on stdout
 * (`--output-format json --stream off`), no colour or log files, no auto-update, no question to a
 * user who is not there (`--no-ask-user`), no built-in MCP server, no file access in the temp
 * folder outside the workspace, the provider's key stripped from the agent's shell
 * (`--secret-env-vars`), the tools the run may see, and the usage report in a file of ours.
 * Custom instructions stay on for a target run, since `.github/copilot-instructions.md` is how the
 * skill reaches the model (the original passed `--no-custom-instructions` and so hid it).
 */
export function copilotArguments(execution: CopilotExecution): string[] {
  if (execution.availableTools.length === 0) throw new Error('a Copilot run needs at least one tool name: an empty --available-tools means every tool');
  return [
    '--output-format',
    'json',
    '--stream',
    'off',
    '--no-color',
    '--log-level',
    'none',
    '--no-auto-update',
    '--no-ask-user',
    '--disable-builtin-mcps',
    '--disallow-temp-dir',
    `--secret-env-vars=${COPILOT_API_KEY_VARIABLE}`,
    `--available-tools=${execution.availableTools.join(',')}`,
    ...(execution.write ? ['--allow-tool=write'] : []),
    ...(execution.write && execution.allowAllTools ? ['--allow-all-tools'] : []),
    ...(execution.chat ? ['--no-custom-instructions'] : []),
    ...(execution.reasoningEffort === undefined ? [] : ['--reasoning-effort', execution.reasoningEffort]),
    '--usage-output-file',
    execution.usageFile,
  ];
}

/** The tools of a target run: the configured ones, the file writers when it may edit, the skill tool when its skill is in the skills folder. */
export function targetTools(configured: readonly string[], options: { write: boolean; skillsFolder: boolean }): string[] {
  return [...new Set([...configured, ...(options.write ? WRITE_TOOLS : []), ...(options.skillsFolder ? [SKILL_TOOL] : [])])];
}
