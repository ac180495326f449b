/** What OpenCode may do in one run: `allow` or `deny` per tool id, with `*` first. */
export type OpencodePermission = Readonly<Record<string, 'allow' | 'deny'>>;

/**
 * Reading: a file, a folder's listing, a glob, a grep. Each takes paths, and a path outside the
 * workspace needs OpenCode's `external_directory` permission, which stays denied.
 */
const READ_TOOLS = ['read', 'list', 'glob', 'grep'] as const;
/** Creating and editing files (OpenCode's edit permission covers its write and patch tools too). */
const WRITE_TOOLS = ['edit'] as const;
/** Loading a project skill by name, what OpenCode offers for `.opencode/skills/<name>/SKILL.md`. */
const SKILL_TOOL = 'skill';
const SHELL_TOOL = 'bash';

export interface PermissionOptions {
  access: 'read' | 'write';
  /** Whether the skill is a project skill (so the skill tool is allowed). */
  projectSkill: boolean;
  allowBash: boolean;
  /** The config's `allowed_tools`, which replaces the list. */
  allowedTools: readonly string[] | undefined;
}

/**
 * The permissions of one target run, deny by default: `*` is denied (every tool OpenCode or a
 * plugin has, asking the user, sub agents, the web, paths outside the workspace), then the tools
 * the request's access needs are allowed. OpenCode leaves a denied tool out of the model's request
 * altogether, so the model is offered exactly these. Nothing is `ask`: in a batch run no one answers.
 */
export function targetPermission(options: PermissionOptions): OpencodePermission {
  const allowed = options.allowedTools ?? [
    ...READ_TOOLS,
    ...(options.access === 'write' ? WRITE_TOOLS : []),
    ...(options.projectSkill ? [SKILL_TOOL] : []),
    ...(options.allowBash ? [SHELL_TOOL] : []),
  ];
  return Object.fromEntries([['*', 'deny'], ...allowed.map((tool) => [tool, 'allow'])]) as OpencodePermission;
}

/** A chat call's permissions: every tool denied, so the model answers from the prompt alone. */
export const CHAT_PERMISSION: OpencodePermission = Object.freeze({ '*': 'deny' });
