import { z } from 'zod';
import { DEFAULT_CLAUDE_COMMAND } from './provider.js';

const wholeNumber = (minimum: number) => z.coerce.number().int().min(minimum);

/** Where a target run finds the skill (docs/backends/claude-code.md, "Where the skill goes"). */
export const SKILL_PLACEMENTS = ['project-skill', 'claude-md'] as const;
export type SkillPlacement = (typeof SKILL_PLACEMENTS)[number];

/** The permission modes a config may ask for; the default is chosen from the request's workspace access. */
export const PERMISSION_MODES = ['default', 'dontAsk', 'acceptEdits', 'plan', 'bypassPermissions'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ClaudeCodeEffort = (typeof EFFORTS)[number];

const overridableShape = {
  base_url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. http://127.0.0.1:8080' })
    .optional()
    .describe('The API origin Claude Code talks to (its ANTHROPIC_BASE_URL, without /v1). Absent: ANTHROPIC_BASE_URL of the environment, else Anthropic.'),
  effort: z.enum(EFFORTS).optional().describe("Claude Code's --effort. Absent: the CLI's default."),
  max_thinking_tokens: wholeNumber(0).optional().describe('MAX_THINKING_TOKENS for the CLI; 0 turns thinking off.'),
  timeout_ms: wholeNumber(1).optional().describe('Milliseconds one chat call may take before it fails with a retryable process-timeout. Default 600000.'),
};

/** A role's own section (`backends.claude-code.target`, `.optimizer`, `.judge`). */
export const claudeCodeRoleConfigSchema = z.strictObject({
  model: z.string().min(1).optional().describe("This role's model when the run config names none. Default claude-sonnet-4-6."),
  ...overridableShape,
});
export type ClaudeCodeRoleConfig = z.output<typeof claudeCodeRoleConfigSchema>;

/**
 * The `backends.claude-code` section. Strict: an unknown or misspelt key is an error. There is no
 * key for the API key: it comes from ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN) only.
 */
export const claudeCodeBackendConfigSchema = z.strictObject({
  ...overridableShape,
  path: z.string().min(1).default(DEFAULT_CLAUDE_COMMAND).describe('The Claude Code executable: a name on PATH or a path. Default claude.'),
  skill_placement: z
    .enum(SKILL_PLACEMENTS)
    .default('project-skill')
    .describe('Where a target run finds the skill: `project-skill` (.claude/skills/<skill_name>/SKILL.md) or `claude-md` (CLAUDE.md). Default project-skill.'),
  skill_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and dashes, at most 64')
    .default('skillopt-target')
    .describe("The project skill's name (its folder and front matter). Default skillopt-target."),
  permission_mode: z
    .enum(PERMISSION_MODES)
    .optional()
    .describe(
      "Overrides the permission mode chosen from the run's workspace access (dontAsk for read, acceptEdits for write). `bypassPermissions` lets the agent run any command unasked.",
    ),
  allowed_tools: z
    .array(z.string().min(1))
    .optional()
    .describe(
      "Overrides the tools a target run may use (Claude Code's --tools and --allowedTools). Default: Read, Glob, Grep, Bash, Skill; Edit and Write too for write access.",
    ),
  sandboxed: z
    .boolean()
    .default(false)
    .describe('Declares the machine a sandbox (IS_SANDBOX=1), which Claude Code requires before it runs bypassPermissions as root. Default false.'),
  pass_environment: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'))
    .default([])
    .describe('More variables the CLI may inherit (proxies, CA bundles, CLAUDE_CODE_USE_BEDROCK …), beside PATH, HOME, TMPDIR and the locale.'),
  max_concurrency: wholeNumber(1).default(2).describe('Claude Code processes running at once in this process, per API origin and key. Default 2.'),
  target: claudeCodeRoleConfigSchema.optional().describe('Settings of the target only; they override the top level.'),
  optimizer: claudeCodeRoleConfigSchema.optional().describe('Settings of the optimizer only; they override the top level.'),
  judge: claudeCodeRoleConfigSchema.optional().describe('Settings of the judge only; they override the top level.'),
});

export type ClaudeCodeBackendConfig = z.output<typeof claudeCodeBackendConfigSchema>;
export type ClaudeCodeBackendConfigInput = z.input<typeof claudeCodeBackendConfigSchema>;
