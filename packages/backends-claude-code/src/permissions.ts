import { backendConfigError } from '@skillopt/backends-kit';
import type { ClaudeCodeBackendConfig, PermissionMode } from './config-schema.js';

/** What Claude Code is allowed to do in one target run. */
export interface RunPermissions {
  permissionMode: PermissionMode;
  /** The built-in tools the model is offered (`--tools`). */
  tools: readonly string[];
  /** The tools it may use without asking (`--allowedTools`); in `dontAsk` mode every other use is refused. */
  allowedTools: readonly string[];
  /** Variables the mode needs (IS_SANDBOX=1 for bypassPermissions as root). */
  environment: Readonly<Record<string, string>>;
}

/**
 * Reading files and read-only shell commands. In `dontAsk` mode Claude Code refuses every tool use
 * that is not pre-approved instead of prompting, and it approves read-only commands (`cat`, `ls`,
 * `grep`, …) of Bash itself, so a command that would change anything is refused.
 */
const READ_TOOLS = ['Read', 'Glob', 'Grep', 'Bash'] as const;
const READ_ALLOWED = ['Read', 'Glob', 'Grep'] as const;
/** Editing files in the workspace too: `acceptEdits` accepts edits inside the working directory only. */
const WRITE_TOOLS = ['Edit', 'Write'] as const;
/** Loading a project skill by name, what Claude Code itself offers for `.claude/skills/<name>/SKILL.md`. */
const SKILL_TOOL = 'Skill';

export interface PermissionOptions {
  access: 'read' | 'write';
  /** Programs the agent's Bash may run (a request's `allowedCommands`), each with any arguments. */
  commands?: readonly string[] | undefined;
  /** Whether the skill is a project skill (so the Skill tool is offered). */
  projectSkill: boolean;
}

/**
 * The allowlist rule of one program: `Bash(python3:*)` matches `python3` alone and with any
 * arguments, at a word boundary (not `python3x`); Claude Code checks each part of a compound
 * command (`python3 a.py && rm b`) on its own, so the rule admits no other program behind it.
 */
function commandRule(command: string): string {
  return `Bash(${command}:*)`;
}

/**
 * The permissions of one run: the request's access and commands, unless the config overrides the
 * mode or the tools. Both modes refuse a Bash command no rule allows (`dontAsk` refuses it,
 * `acceptEdits` would ask and `-p` cannot), so with `commands` the agent's shell runs those
 * programs, and the read-only ones Claude Code approves itself, and nothing else.
 */
export function runPermissions(config: ClaudeCodeBackendConfig, options: PermissionOptions): RunPermissions {
  const skillTool = options.projectSkill ? [SKILL_TOOL] : [];
  const writeTools = options.access === 'write' ? WRITE_TOOLS : [];
  const commandRules = (options.commands ?? []).map(commandRule);
  const tools = config.allowed_tools ?? [...READ_TOOLS, ...writeTools, ...skillTool];
  const allowedTools = [...(config.allowed_tools ?? [...READ_ALLOWED, ...writeTools, ...skillTool]), ...commandRules];
  const permissionMode = config.permission_mode ?? (options.access === 'write' ? 'acceptEdits' : 'dontAsk');
  return {
    permissionMode,
    tools,
    allowedTools,
    environment: permissionMode === 'bypassPermissions' && config.sandboxed ? { IS_SANDBOX: '1' } : {},
  };
}

/**
 * Refuses, before any run, a configuration Claude Code would refuse on every run: as root it will
 * not bypass permissions unless told the machine is a sandbox.
 */
export function checkPermissionConfig(config: ClaudeCodeBackendConfig, runsAsRoot: boolean): void {
  if (config.permission_mode === 'bypassPermissions' && runsAsRoot && !config.sandboxed)
    throw backendConfigError(
      'claude-code',
      'permission_mode: bypassPermissions as root needs `sandboxed: true` (IS_SANDBOX=1): Claude Code refuses to skip its permission checks as root otherwise. Set it only on a machine that is itself a sandbox.',
      { key: 'permission_mode' },
    );
}

/** Whether this process runs as root (Claude Code's own test for bypassPermissions). */
export function processRunsAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}
