import { z } from 'zod';

const wholeNumber = (minimum: number) => z.int().min(minimum);

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1', 'y']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', 'n', '']);

/** A boolean, or a string that spells one ("true", "off") as the original's YAML and variables did. */
const booleanFromConfig = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : value;
}, z.boolean());

export const PROVIDER_TYPES = ['openai', 'azure', 'anthropic'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export const WIRE_APIS = ['completions', 'responses'] as const;
export type WireApi = (typeof WIRE_APIS)[number];

export const SKILL_PLACEMENTS = ['copilot-instructions', 'skills-folder'] as const;
export type SkillPlacement = (typeof SKILL_PLACEMENTS)[number];

export const COPILOT_REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type CopilotReasoningEffort = (typeof COPILOT_REASONING_EFFORTS)[number];

/** Copilot's own tools a target run may see when the config names none: its shell, its file viewer and its two searches. */
export const DEFAULT_AVAILABLE_TOOLS = ['bash', 'view', 'glob', 'grep'] as const;

const TOOL_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * A list of Copilot tool names, or one comma-separated string of them (as the original's
 * COPILOT_AVAILABLE_TOOLS). Never empty: Copilot reads an empty `--available-tools` as "every
 * tool", the opposite of what an empty list says.
 */
const toolList = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '')
      : value,
  z
    .array(z.string().regex(TOOL_NAME, 'a Copilot tool name, e.g. bash or view'))
    .min(1, 'name at least one tool: Copilot reads an empty --available-tools as every tool, so an empty list would remove none'),
);

/** The settings a role section may override; a role section only says what differs from the top level. */
const overridableShape = {
  base_url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://api.openai.com/v1' })
    .optional()
    .describe(
      "The model provider's API base, COPILOT_PROVIDER_BASE_URL: with its /v1 for openai (Copilot adds /chat/completions or /responses), without it for anthropic. Default https://api.openai.com/v1; point it at `skillopt sim serve` (http://127.0.0.1:<port>/v1) to train against the simulator.",
    ),
  reasoning_effort: z
    .enum(COPILOT_REASONING_EFFORTS)
    .optional()
    .describe("Copilot's --reasoning-effort. Absent: Copilot's own default (a chat call's reasoningEffort wins)."),
  timeout_ms: wholeNumber(1)
    .optional()
    .describe('Milliseconds one chat call (one Copilot run) may take. Default 600000. Agent runs take the time limit the env gives them.'),
  max_retries: wholeNumber(0)
    .optional()
    .describe(
      'Chat calls only: how many more times a call whose run failed for a transient reason is made. Default 2. A failed agent run is retried by core (run.retries).',
    ),
};

/** A role's own section (`backends.copilot.target`, `.optimizer`, `.judge`). */
export const copilotRoleConfigSchema = z.strictObject({
  model: z
    .string()
    .min(1)
    .optional()
    .describe("This role's model (COPILOT_MODEL) when the run config names none (model.target / model.optimizer win). Default gpt-5.1."),
  ...overridableShape,
});
export type CopilotRoleConfig = z.output<typeof copilotRoleConfigSchema>;

/**
 * The `backends.copilot` section of a run config, strict: an unknown or misspelt key is an error.
 * There is deliberately no `api_key`: the key comes from the environment only.
 */
export const copilotBackendConfigSchema = z.strictObject({
  ...overridableShape,
  timeout_ms: overridableShape.timeout_ms.default(600_000),
  max_retries: overridableShape.max_retries.default(2),
  path: z.string().min(1).optional().describe('The Copilot CLI to start. Default: COPILOT_EXEC_PATH when set, else `copilot` on the PATH.'),
  provider_type: z
    .enum(PROVIDER_TYPES)
    .default('openai')
    .describe('COPILOT_PROVIDER_TYPE: openai (default; any OpenAI-compatible endpoint, the simulator too), azure or anthropic.'),
  wire_api: z
    .enum(WIRE_APIS)
    .default('completions')
    .describe('COPILOT_PROVIDER_WIRE_API for an openai or azure provider: completions (default, /chat/completions) or responses (/responses).'),
  skill_placement: z
    .enum(SKILL_PLACEMENTS)
    .default('copilot-instructions')
    .describe(
      "Where the skill is installed in the workspace. copilot-instructions (default): .github/copilot-instructions.md, whose text Copilot puts into the model's system prompt. skills-folder: .github/skills/<skill_name>/SKILL.md, which Copilot lists for the model to load (with its skill tool) or read.",
    ),
  skill_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and hyphens, e.g. skillopt-target')
    .default('skillopt-target')
    .describe("The skill's name in the skills folder and its front matter. Default skillopt-target."),
  available_tools: toolList
    .default([...DEFAULT_AVAILABLE_TOOLS])
    .describe(
      "Copilot's tools a target run's model sees (--available-tools). Default bash, view, glob, grep; a run that may edit its workspace also gets create and edit, and skills-folder adds skill. Never empty: Copilot reads an empty value as every tool.",
    ),
  allow_all_tools: booleanFromConfig
    .default(false)
    .describe(
      "Runs that may edit their workspace only: pass --allow-all-tools, so every shell command runs without approval (with your user's rights, no sandbox). Default false: such runs may edit files in the workspace with Copilot's file tools, and a shell command that needs approval is refused.",
    ),
  max_concurrency: wholeNumber(1).optional().describe('Copilot processes at once for this backend, across roles. Default 2: each is a heavy process.'),
  target: copilotRoleConfigSchema.optional().describe('Settings of the target only; they override the top level.'),
  optimizer: copilotRoleConfigSchema.optional().describe('Settings of the optimizer only; they override the top level.'),
  judge: copilotRoleConfigSchema.optional().describe('Settings of the judge only; they override the top level.'),
});

export type CopilotBackendConfig = z.output<typeof copilotBackendConfigSchema>;
export type CopilotBackendConfigInput = z.input<typeof copilotBackendConfigSchema>;
