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

/** Words the original used for "no reasoning effort override", read as the key's absence. */
const NO_EFFORT_WORDS = new Set(['', 'none', 'off']);

export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export const APPROVAL_POLICIES = ['never', 'on-request', 'on-failure', 'untrusted'] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];

export const SKILL_PLACEMENTS = ['agents-md', 'skills-folder'] as const;
export type SkillPlacement = (typeof SKILL_PLACEMENTS)[number];

export const CODEX_REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type CodexReasoningEffort = (typeof CODEX_REASONING_EFFORTS)[number];

/** The settings a role section may override; a role section only says what differs from the top level. */
const overridableShape = {
  base_url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://api.openai.com/v1' })
    .optional()
    .describe(
      'The Responses API base, with its /v1 (Codex adds /responses). Default https://api.openai.com/v1; point it at `skillopt sim serve` (http://127.0.0.1:<port>/v1) to train against the simulator.',
    ),
  reasoning_effort: z
    .preprocess(
      (value) => (typeof value === 'string' && NO_EFFORT_WORDS.has(value.trim().toLowerCase()) ? undefined : value),
      z.enum(CODEX_REASONING_EFFORTS).optional(),
    )
    .describe("Codex's model_reasoning_effort. Absent: Codex's own default (a chat call's reasoningEffort wins; `none` sends nothing)."),
  timeout_ms: wholeNumber(1)
    .optional()
    .describe('Milliseconds one chat call (one `codex exec`) may take. Default 600000. Agent runs take the time limit the env gives them.'),
  max_retries: wholeNumber(0)
    .optional()
    .describe(
      'Chat calls only: how many more times a call whose run failed for a transient reason is made. Default 2. A failed agent run is retried by core (run.retries).',
    ),
};

/** A role's own section (`backends.codex.target`, `.optimizer`, `.judge`). */
export const codexRoleConfigSchema = z.strictObject({
  model: z.string().min(1).optional().describe("This role's model when the run config names none (model.target / model.optimizer win). Default gpt-5.1."),
  ...overridableShape,
});
export type CodexRoleConfig = z.output<typeof codexRoleConfigSchema>;

/**
 * The `backends.codex` section of a run config, strict: an unknown or misspelt key is an error.
 * There is deliberately no `api_key`: the key comes from the environment only.
 */
export const codexBackendConfigSchema = z.strictObject({
  ...overridableShape,
  timeout_ms: overridableShape.timeout_ms.default(600_000),
  max_retries: overridableShape.max_retries.default(2),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('The Codex CLI to start. Default: CODEX_EXEC_PATH, CODEX_CLI_BIN or CODEX_PATH when set, else `codex` on the PATH.'),
  sandbox: z
    .enum(SANDBOX_MODES)
    .default('read-only')
    .describe(
      "Codex's sandbox for the agent's shell commands. read-only (default): it reads files and runs commands, writes nothing; a run whose request asks for write access gets workspace-write, which lets it edit files inside its workspace only. danger-full-access: no sandbox at all, for an already isolated machine.",
    ),
  approval_policy: z
    .enum(APPROVAL_POLICIES)
    .default('never')
    .describe('When Codex would ask before running a command. never (default): it never asks (nobody could answer), and a command the sandbox refuses fails.'),
  network_access: booleanFromConfig.default(false).describe("Whether the agent's commands may reach the network under workspace-write. Default false."),
  web_search: booleanFromConfig.default(false).describe("Codex's web search tool. Default false (off)."),
  skill_placement: z
    .enum(SKILL_PLACEMENTS)
    .default('agents-md')
    .describe(
      "Where the skill is installed in the workspace. agents-md (default): AGENTS.md at its root, whose text Codex puts into the model's context. skills-folder: .agents/skills/<skill_name>/SKILL.md, which Codex lists for the model to open (the original SkillOpt's placement).",
    ),
  skill_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and hyphens, e.g. skillopt-target')
    .default('skillopt-target')
    .describe("The skill's name in the skills folder and its front matter. Default skillopt-target."),
  config_overrides: z
    .record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'a dotted Codex config key'), z.string())
    .optional()
    .describe('More Codex settings, each passed as `-c <key>=<value>` (the value is TOML, e.g. \'"high"\' or true); they come last, so they win.'),
  max_concurrency: wholeNumber(1).optional().describe('Codex processes at once for this backend, across roles. Default 2: each is a heavy process.'),
  target: codexRoleConfigSchema.optional().describe('Settings of the target only; they override the top level.'),
  optimizer: codexRoleConfigSchema.optional().describe('Settings of the optimizer only; they override the top level.'),
  judge: codexRoleConfigSchema.optional().describe('Settings of the judge only; they override the top level.'),
});

export type CodexBackendConfig = z.output<typeof codexBackendConfigSchema>;
export type CodexBackendConfigInput = z.input<typeof codexBackendConfigSchema>;
