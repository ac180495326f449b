import { z } from 'zod';

/** Anthropic's smallest accepted `thinking.budget_tokens`. */
export const MINIMUM_THINKING_BUDGET_TOKENS = 1024;

const wholeNumber = (minimum: number) => z.int().min(minimum);

/**
 * The settings a role section may override. Every key is optional here: a role section only says
 * what differs from the top level of `backends.anthropic`.
 */
const overridableShape = {
  base_url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://api.anthropic.com' })
    .optional()
    .describe(
      'The API origin, without /v1 (the SDK adds /v1/messages). Default https://api.anthropic.com; point it at `skillopt sim serve` to train against the simulator.',
    ),
  max_output_tokens: wholeNumber(1)
    .optional()
    .describe("The Messages API's max_tokens when a call does not set its own cap (thinking included). Default 16384."),
  thinking_budget_tokens: wholeNumber(MINIMUM_THINKING_BUDGET_TOKENS)
    .optional()
    .describe('Turns on extended thinking with this budget (at least 1024, below max_output_tokens). Absent: no extended thinking.'),
  prompt_caching: z
    .boolean()
    .optional()
    .describe('Marks the system prompt (which holds the skill, repeated by every rollout of a step) for prompt caching. Default true.'),
  timeout_ms: wholeNumber(1).optional().describe('Milliseconds one attempt may take before it fails with a retryable provider-timeout. Default 600000.'),
  max_retries: wholeNumber(0)
    .optional()
    .describe(
      'Retries after a transient failure (5xx, 529, timeouts, broken connections). A 429 is waited out without using one up, for up to five minutes per call. Default 4.',
    ),
  max_concurrency: wholeNumber(1).optional().describe('Calls in flight at once. Absent: unlimited (unless a per-minute budget is set).'),
  requests_per_minute: wholeNumber(1).optional().describe('Calls started in any rolling minute. Absent: unlimited.'),
  tokens_per_minute: wholeNumber(1).optional().describe('Input (excluding cache reads) plus output tokens in any rolling minute. Absent: unlimited.'),
};

/** A role's own section (`backends.anthropic.target`, `.optimizer`, `.judge`). */
export const anthropicRoleConfigSchema = z.strictObject({
  model: z
    .string()
    .min(1)
    .optional()
    .describe("This role's model when the run config names none (model.target / model.optimizer win). Default claude-sonnet-4-6."),
  ...overridableShape,
});
export type AnthropicRoleConfig = z.output<typeof anthropicRoleConfigSchema>;

/** The `backends.anthropic` section of a run config (snake_case, as every config key). */
const anthropicBackendConfigShape = z.strictObject({
  ...overridableShape,
  max_output_tokens: overridableShape.max_output_tokens.default(16_384),
  prompt_caching: overridableShape.prompt_caching.default(true),
  timeout_ms: overridableShape.timeout_ms.default(600_000),
  max_retries: overridableShape.max_retries.default(4),
  target: anthropicRoleConfigSchema.optional().describe('Settings of the target model only; they override the top level.'),
  optimizer: anthropicRoleConfigSchema.optional().describe('Settings of the optimizer model only; they override the top level.'),
  judge: anthropicRoleConfigSchema.optional().describe('Settings of the judge model only; they override the top level.'),
});

const ROLE_SECTIONS = ['target', 'optimizer', 'judge'] as const;

/**
 * The whole section, strict: an unknown or misspelt key is an error. There is deliberately no
 * `api_key`: the key comes from ANTHROPIC_API_KEY only, so it never lands in a config file.
 */
export const anthropicBackendConfigSchema = anthropicBackendConfigShape.superRefine((config, context) => {
  const check = (where: (string | number)[], budget: number | undefined, maxOutputTokens: number): void => {
    if (budget !== undefined && budget >= maxOutputTokens)
      context.addIssue({
        code: 'custom',
        path: [...where, 'thinking_budget_tokens'],
        message: `thinking_budget_tokens (${budget}) must be below max_output_tokens (${maxOutputTokens}): Anthropic counts thinking inside max_tokens`,
      });
  };
  check([], config.thinking_budget_tokens, config.max_output_tokens);
  for (const role of ROLE_SECTIONS) {
    const section = config[role];
    if (section === undefined) continue;
    check([role], section.thinking_budget_tokens ?? config.thinking_budget_tokens, section.max_output_tokens ?? config.max_output_tokens);
  }
});

export type AnthropicBackendConfig = z.output<typeof anthropicBackendConfigSchema>;
export type AnthropicBackendConfigInput = z.input<typeof anthropicBackendConfigSchema>;
