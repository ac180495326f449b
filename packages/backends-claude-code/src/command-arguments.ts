import type { ClaudeCodeEffort } from './config-schema.js';
import type { RunPermissions } from './permissions.js';

/** Arguments every run shares: print mode, nothing saved to resume, no MCP servers but none. */
const COMMON_ARGUMENTS = ['-p', '--no-session-persistence', '--strict-mcp-config'] as const;

export interface TargetArgumentsOptions {
  modelId: string;
  permissions: RunPermissions;
  effort: ClaudeCodeEffort | undefined;
}

/**
 * A target run: the prompt on stdin, every event as a JSON line (`stream-json` needs `--verbose`),
 * the tools and permission mode of the run, project settings only (the workspace's, where the skill
 * is; the user's own are out of reach anyway). Never `--bare`, which would skip CLAUDE.md discovery
 * and the project's skills: the run must see the skill as a user's Claude Code would.
 */
export function targetArguments(options: TargetArgumentsOptions): string[] {
  return [
    ...COMMON_ARGUMENTS,
    '--output-format',
    'stream-json',
    '--verbose',
    '--model',
    options.modelId,
    '--permission-mode',
    options.permissions.permissionMode,
    '--tools',
    options.permissions.tools.join(','),
    '--allowedTools',
    options.permissions.allowedTools.join(','),
    '--setting-sources',
    'project',
    ...effortArguments(options.effort),
  ];
}

export interface ChatArgumentsOptions {
  modelId: string;
  /** The file holding the system prompt, which replaces Claude Code's own. */
  systemPromptFile: string;
  effort: ClaudeCodeEffort | undefined;
  /** The JSON Schema the reply must hold (`--json-schema`, answered through `structured_output`). */
  jsonSchema: Record<string, unknown> | undefined;
}

/**
 * A chat call: one JSON result, no tools at all (`--tools ""`; with `--json-schema` Claude Code
 * still offers its StructuredOutput tool, through which the reply comes), no settings, skills or
 * slash commands, and our system prompt in place of Claude Code's, read from a file so a long one
 * stays under the command-line limit.
 */
export function chatArguments(options: ChatArgumentsOptions): string[] {
  return [
    ...COMMON_ARGUMENTS,
    '--output-format',
    'json',
    '--model',
    options.modelId,
    '--tools',
    '',
    '--setting-sources',
    '',
    '--disable-slash-commands',
    '--system-prompt-file',
    options.systemPromptFile,
    ...effortArguments(options.effort),
    ...(options.jsonSchema === undefined ? [] : ['--json-schema', JSON.stringify(options.jsonSchema)]),
  ];
}

function effortArguments(effort: ClaudeCodeEffort | undefined): string[] {
  return effort === undefined ? [] : ['--effort', effort];
}
