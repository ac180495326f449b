import { z } from 'zod';

const wholeNumber = (minimum: number) => z.int().min(minimum);

/** The provider APIs Pi speaks that this package writes a provider for (Pi's models.json `api`). */
export const PI_APIS = ['openai-completions', 'openai-responses', 'anthropic-messages'] as const;
export type PiApi = (typeof PI_APIS)[number];

/** Pi's thinking levels (`--thinking`); `off` asks for none. */
export const PI_THINKING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type PiThinkingLevel = (typeof PI_THINKING_LEVELS)[number];

/** Pi's built-in tools (`--tools`). */
export const PI_TOOLS = ['read', 'grep', 'find', 'ls', 'edit', 'write', 'bash'] as const;
export type PiTool = (typeof PI_TOOLS)[number];

export const SKILL_PLACEMENTS = ['agents-md', 'skills-folder'] as const;
export type SkillPlacement = (typeof SKILL_PLACEMENTS)[number];

/** Words the original used for "no reasoning effort override", read as the key's absence. */
const NO_THINKING_WORDS = new Set(['', 'none']);

/** The settings a role section may override; a role section only says what differs from the top level. */
const overridableShape = {
  base_url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://api.openai.com/v1' })
    .optional()
    .describe(
      "The provider's base URL as Pi's models.json wants it: with /v1 for the OpenAI APIs (Pi adds /chat/completions or /responses), without it for anthropic-messages. Default https://api.openai.com/v1; point it at `skillopt sim serve` (http://127.0.0.1:<port>/v1) to train against the simulator.",
    ),
  api: z
    .enum(PI_APIS)
    .optional()
    .describe('The API the provider speaks. Default openai-completions (Chat Completions); openai-responses or anthropic-messages for those APIs.'),
  thinking: z
    .preprocess(
      (value) => (typeof value === 'string' && NO_THINKING_WORDS.has(value.trim().toLowerCase()) ? undefined : value),
      z.enum(PI_THINKING_LEVELS).optional(),
    )
    .describe("Pi's thinking level (--thinking). Absent: none asked for (a chat call's reasoningEffort wins)."),
  timeout_ms: wholeNumber(1)
    .optional()
    .describe('Milliseconds one chat call (one `pi -p`) may take. Default 600000. Agent runs take the time limit the env gives them.'),
  max_retries: wholeNumber(0)
    .optional()
    .describe(
      'Chat calls only: how many more times a call whose run failed for a transient reason is made. Default 2. A failed agent run is retried by core (run.retries).',
    ),
};

/** A role's own section (`backends.pi.target`, `.optimizer`, `.judge`). */
export const piRoleConfigSchema = z.strictObject({
  model: z.string().min(1).optional().describe("This role's model when the run config names none (model.target / model.optimizer win). Default gpt-5.1."),
  ...overridableShape,
});
export type PiRoleConfig = z.output<typeof piRoleConfigSchema>;

/**
 * The `backends.pi` section of a run config, strict: an unknown or misspelt key is an error.
 * There is deliberately no `api_key`: the key comes from the environment only.
 */
export const piBackendConfigSchema = z.strictObject({
  ...overridableShape,
  timeout_ms: overridableShape.timeout_ms.default(600_000),
  max_retries: overridableShape.max_retries.default(2),
  path: z.string().min(1).optional().describe('The Pi CLI to start. Default `pi` on the PATH (the bin of @mariozechner/pi-coding-agent).'),
  tools: z
    .array(z.enum(PI_TOOLS))
    .optional()
    .describe(
      'The built-in tools the agent is given (--tools), replacing the default: read, grep, find and ls, with edit and write added when the request asks to edit its workspace. bash is not in the default: Pi has no sandbox, so a shell can do anything your user can; name it only on an isolated machine. An empty list gives the agent no tools.',
    ),
  skill_placement: z
    .enum(SKILL_PLACEMENTS)
    .default('agents-md')
    .describe(
      'Where the skill is installed in the workspace. agents-md (default): AGENTS.md at its root, whose text Pi puts into its system prompt. skills-folder: .pi/skills/<skill_name>/SKILL.md, which Pi lists for the model to open with its read tool.',
    ),
  skill_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and hyphens, e.g. skillopt-target')
    .default('skillopt-target')
    .describe("The skill's name in the skills folder and its front matter. Default skillopt-target."),
  max_concurrency: wholeNumber(1).optional().describe('Pi processes at once for this backend, across roles. Default 2: each is a Node process of its own.'),
  target: piRoleConfigSchema.optional().describe('Settings of the target only; they override the top level.'),
  optimizer: piRoleConfigSchema.optional().describe('Settings of the optimizer only; they override the top level.'),
  judge: piRoleConfigSchema.optional().describe('Settings of the judge only; they override the top level.'),
});

export type PiBackendConfig = z.output<typeof piBackendConfigSchema>;
export type PiBackendConfigInput = z.input<typeof piBackendConfigSchema>;
