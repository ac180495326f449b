import path from 'node:path';
import type { PiThinkingLevel, PiTool, SkillPlacement } from './config-schema.js';
import { PI_MODEL_PROVIDER_ID } from './provider.js';
import type { PiRoleSettings } from './role-settings.js';
import { skillsFolderPath } from './skill-placement.js';

/** What one `pi -p` is started for. */
export type PiExecution =
  | {
      kind: 'agent';
      settings: PiRoleSettings;
      tools: readonly PiTool[];
      /** Where the skill is: which of Pi's discovery stays on. */
      skillPlacement: SkillPlacement;
      /** The run's workspace, for the skill's absolute path in the skills-folder placement. */
      workspace: string;
    }
  | {
      kind: 'chat';
      settings: PiRoleSettings;
      /** A file holding the call's system prompt (Pi reads `--system-prompt` from a file that exists). */
      systemPromptFile: string;
      /** A chat call's own thinking level wins over the configured one. */
      thinking?: PiThinkingLevel | undefined;
    };

/** What Pi would otherwise load from the user's and the project's folders: off for every run. */
const NO_DISCOVERY = ['--no-extensions', '--no-prompt-templates', '--no-themes'] as const;

/**
 * The argument vector of one `pi -p`, with the prompt read from stdin: JSON events on stdout
 * (`--mode json`), no session file (`--no-session`), the model of our own `skillopt` provider
 * (written into the run's models.json), and no extension, prompt template or theme loaded. An
 * agent run gets its tools by name and Pi's discovery of the one place its skill is: AGENTS.md
 * (context files on, skills off) or its skill given by path (both off, so no AGENTS.md or skill
 * of a folder above the workspace joins in). A chat call gets no tools, no context and no skills,
 * its system prompt from a file.
 */
export function piArguments(execution: PiExecution): string[] {
  const { settings } = execution;
  const thinking = execution.kind === 'chat' ? (execution.thinking ?? settings.thinking) : settings.thinking;
  const common = ['-p', '--mode', 'json', '--no-session', '--provider', PI_MODEL_PROVIDER_ID, '--model', settings.modelId, ...NO_DISCOVERY];
  const thinkingArguments = thinking === undefined ? [] : ['--thinking', thinking];
  if (execution.kind === 'chat')
    return [...common, '--no-tools', '--no-skills', '--no-context-files', '--system-prompt', execution.systemPromptFile, ...thinkingArguments];
  const tools = execution.tools.length === 0 ? ['--no-tools'] : ['--tools', execution.tools.join(',')];
  const skill =
    execution.skillPlacement === 'agents-md'
      ? ['--no-skills']
      : ['--no-skills', '--no-context-files', '--skill', path.dirname(path.join(execution.workspace, skillsFolderPath(settings.skillName)))];
  return [...common, ...tools, ...skill, ...thinkingArguments];
}
