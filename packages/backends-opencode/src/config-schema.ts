import { z } from 'zod';

const wholeNumber = (minimum: number) => z.int().min(minimum);

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0']);

/** A boolean, or a string that spells one ("true", "off") as the original's YAML did. */
const booleanFromConfig = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : value;
}, z.boolean());

export const SKILL_PLACEMENTS = ['agents-md', 'skills-folder'] as const;
export type SkillPlacement = (typeof SKILL_PLACEMENTS)[number];

/** An OpenCode tool (permission) id: `read`, `bash`, `edit`, a tool of a plugin. */
const toolId = z.string().regex(/^[a-z][a-z0-9_-]*$/, 'an OpenCode tool id, e.g. read or bash');

/** The settings a role section may override; a role section only says what differs from the top level. */
const overridableShape = {
  base_url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://api.openai.com/v1' })
    .optional()
    .describe(
      'The Chat Completions API base, with its /v1 (OpenCode adds /chat/completions). Default https://api.openai.com/v1; point it at `skillopt sim serve` (http://127.0.0.1:<port>/v1) to train against the simulator.',
    ),
  variant: z
    .string()
    .min(1)
    .optional()
    .describe("OpenCode's `--variant` (the provider's reasoning effort: minimal, low, high …). Absent: the model's default."),
  timeout_ms: wholeNumber(1)
    .optional()
    .describe('Milliseconds one chat call (one `opencode run`) may take. Default 600000. Agent runs take the time limit the env gives them.'),
  max_retries: wholeNumber(0)
    .optional()
    .describe(
      'Chat calls only: how many more times a call whose run failed for a transient reason is made. Default 2. A failed agent run is retried by core (run.retries).',
    ),
};

/** A role's own section (`backends.opencode.target`, `.optimizer`, `.judge`). */
export const opencodeRoleConfigSchema = z.strictObject({
  model: z.string().min(1).optional().describe("This role's model when the run config names none (model.target / model.optimizer win). Default gpt-5.1."),
  ...overridableShape,
});
export type OpencodeRoleConfig = z.output<typeof opencodeRoleConfigSchema>;

/**
 * The `backends.opencode` section of a run config, strict: an unknown or misspelt key is an error.
 * There is deliberately no `api_key`: the key comes from the environment only.
 */
export const opencodeBackendConfigSchema = z.strictObject({
  ...overridableShape,
  timeout_ms: overridableShape.timeout_ms.default(600_000),
  max_retries: overridableShape.max_retries.default(2),
  path: z.string().min(1).optional().describe('The OpenCode CLI to start. Default: SKILLOPT_SLEEP_OPENCODE_PATH when set, else `opencode` on the PATH.'),
  skill_placement: z
    .enum(SKILL_PLACEMENTS)
    .default('agents-md')
    .describe(
      "Where the skill is installed in the workspace. agents-md (default): AGENTS.md at its root, whose text OpenCode puts into the model's system prompt. skills-folder: .opencode/skills/<skill_name>/SKILL.md, which OpenCode lists for the model to load with its skill tool.",
    ),
  skill_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and hyphens, e.g. skillopt-target')
    .default('skillopt-target')
    .describe("The skill's name in the skills folder and its front matter. Default skillopt-target."),
  allow_bash: booleanFromConfig
    .default(false)
    .describe("Whether the agent may run shell commands (OpenCode's bash tool). Default false: it reads files with its read, list, glob and grep tools only."),
  allowed_tools: z
    .array(toolId)
    .optional()
    .describe(
      "Replaces the tools the agent may use (every other tool is denied, and not offered to the model). Default: from the request's access and allow_bash.",
    ),
  pass_environment: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name'))
    .default([])
    .describe('More variables OpenCode inherits from this process (a proxy, a CA bundle); everything else stays out.'),
  max_concurrency: wholeNumber(1).optional().describe('OpenCode processes at once for this backend, across roles. Default 2: each is a heavy process.'),
  target: opencodeRoleConfigSchema.optional().describe('Settings of the target only; they override the top level.'),
  optimizer: opencodeRoleConfigSchema.optional().describe('Settings of the optimizer only; they override the top level.'),
  judge: opencodeRoleConfigSchema.optional().describe('Settings of the judge only; they override the top level.'),
});

export type OpencodeBackendConfig = z.output<typeof opencodeBackendConfigSchema>;
export type OpencodeBackendConfigInput = z.input<typeof opencodeBackendConfigSchema>;
